// What a file watcher cannot see is never trusted from it: a write through another name of a file
// (a hard link from outside the project) and a write through a shared writable memory mapping (a
// database, an editor's swap) reach no watch, and the second moves neither mtime nor ctime when the
// page it lands on is already dirty. Captures re-read such files whatever the journal and the stat
// proof say, so a retake never brings back a version the user has since overwritten.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { parseWritableMappings, type WritableMappings } from '../../core/checkpoints/capture/mapped-files'
import { workspace, type Ws } from './helpers'

const linux = process.platform === 'linux'
const python = spawnSync('python3', ['-c', 'import mmap']).status === 0

/** Idle turns until the journal answers one (folders younger than their watch are walked). */
async function journalReady(w: Ws, tag: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await w.store.capture(`s/${tag}${i}`)
    if ((await w.store.seal(`s/${tag}${i}`)).mode === 'watched') return
  }
  throw new Error('the change journal never answered a capture')
}

describe('A file hard-linked from outside the project', () => {
  it('written through the outside name between turns: a later turn is not credited with the write, and its retake keeps it', async () => {
    const w = await workspace()
    w.write('lib/data.txt', 'v0 of the data\n')
    w.write('old/stale.txt', 'to be removed')
    w.write('a.txt', 'a0')
    await journalReady(w, 'b')
    // A backup tool (or another checkout sharing a package store) gives the file a second name
    // outside the project: no event reaches any watch of it.
    const outside = path.join(w.dir, 'backup-data.txt')
    fs.linkSync(w.p('lib/data.txt'), outside)
    // Turn 1 removes a folder, so its seal walks the whole tree and sees the file's two links.
    await w.store.capture('s/t1')
    fs.rmSync(w.p('old'), { recursive: true })
    expect((await w.store.seal('s/t1')).mode).toBe('full')
    await journalReady(w, 'c')
    // The user writes through the outside name between turns.
    fs.writeFileSync(outside, 'v1 written by the user\n')
    await w.store.capture('s/t2')
    w.write('a.txt', 'a2')
    await w.store.seal('s/t2')
    // Turn 3 makes a folder: its seal walks in full again.
    await w.store.capture('s/t3')
    w.write('gen/out.txt', 'generated')
    await w.store.seal('s/t3')
    expect((await w.store.changes('s/t3')).map((c) => c.path).sort()).toEqual(['gen', 'gen/out.txt'])
    const r = await w.store.apply(await w.store.plan({ turnKey: 's/t3' }), { onConflict: 'restore-rest' })
    expect(r.status).toBe('done')
    expect(w.exists('gen')).toBe(false)
    expect(w.text('lib/data.txt')).toBe('v1 written by the user\n')
    expect(fs.readFileSync(outside, 'utf8')).toBe('v1 written by the user\n')
  })
})

/** A child process that keeps `file` mapped shared and writable and writes through the mapping on request. */
class MappedWriter {
  private readonly child: ChildProcessWithoutNullStreams
  private readonly lines: AsyncIterator<string>
  constructor(file: string) {
    const py = [
      'import mmap, sys',
      'f = open(sys.argv[1], "r+b")',
      'm = mmap.mmap(f.fileno(), 0)',
      'print("mapped", flush=True)',
      'for line in sys.stdin:',
      '    data = line.rstrip("\\n").encode()',
      '    m[0:len(data)] = data',
      '    print("written", flush=True)',
    ].join('\n')
    this.child = spawn('python3', ['-c', py, file])
    this.lines = readline.createInterface({ input: this.child.stdout })[Symbol.asyncIterator]()
  }
  async next(): Promise<string> {
    const r = await this.lines.next()
    if (r.done) throw new Error('the mapping child ended')
    return r.value
  }
  async write(data: string): Promise<void> {
    this.child.stdin.write(data + '\n')
    expect(await this.next()).toBe('written')
  }
  async close(): Promise<void> {
    const gone = new Promise((r) => this.child.once('exit', r))
    this.child.stdin.end()
    await gone
  }
}

describe.runIf(linux && python).each([
  ['the change journal', undefined],
  ['full walks (watch: false)', false],
] as const)('A file a process keeps mapped writable, with %s', (_name, watch) => {
  const writers: MappedWriter[] = []
  afterEach(async () => {
    while (writers.length) await writers.pop()!.close()
  })

  it('written through an already-dirty page (no mtime, no ctime, no event): the capture records what is in it, and the retake puts back what was', async () => {
    const w = await workspace({ watch })
    w.write('db.bin', 'A'.repeat(64))
    w.write('other.txt', 'o')
    const m = new MappedWriter(w.p('db.bin'))
    writers.push(m)
    expect(await m.next()).toBe('mapped')
    await m.write('BBBB') // the first write to the page: the kernel moves the mtime once, here
    // Settled (its times aged, the ctime older than any racy margin), so its stat is a proof.
    w.settle()
    if (watch === undefined) await journalReady(w, 'b')
    else {
      await w.store.capture('s/b0')
      await w.store.seal('s/b0')
    }
    await w.store.capture('s/t1')
    const before = fs.lstatSync(w.p('db.bin'))
    await m.write('CCCC') // the page is still dirty and writable: nothing moves
    const after = fs.lstatSync(w.p('db.bin'))
    // (Were the page written back meanwhile, the write would fault and move the times: the test
    // then holds anyway, by the stat.)
    if (after.mtimeMs === before.mtimeMs) expect(after.ctimeMs).toBe(before.ctimeMs)
    await w.store.seal('s/t1')
    expect((await w.store.changes('s/t1')).map((c) => c.path)).toEqual(['db.bin'])
    const r = await w.store.apply(await w.store.plan({ turnKey: 's/t1' }))
    expect(r.status).toBe('done')
    expect(w.text('db.bin')).toBe('BBBB' + 'A'.repeat(60))
    expect(w.text('other.txt')).toBe('o')
  })
})

describe('Reading the writable mappings of processes', () => {
  it('keeps shared writable mappings of files (by path and inode) and nothing else', () => {
    const maps = [
      '7f0000000000-7f0000001000 rw-s 00000000 08:01 1234                       /home/u/proj/data.db',
      '7f0000001000-7f0000002000 rw-p 00000000 08:01 1235                       /home/u/proj/private.bin',
      '7f0000002000-7f0000003000 r--s 00000000 08:01 1236                       /home/u/proj/readonly.bin',
      '7f0000003000-7f0000004000 rw-s 00000000 00:05 99                         /tmp/shm-x (deleted)',
      '7f0000003800-7f0000003900 rw-s 00000000 00:05 98                         /dev/dri/renderD128',
      '7f0000004000-7f0000005000 rw-s 00000000 08:01 1237                       /home/u/proj/with space\\012newline.db',
      '7f0000005000-7f0000006000 rw-s 00000000 00:00 0 ',
      '7f0000006000-7f0000007000 rw-p 00000000 00:00 0                          [heap]',
      '7f0000007000-7f0000008000 rwxs 00000000 08:01 1238                       /home/u/proj/x.jit',
    ].join('\n')
    const m: WritableMappings = { paths: new Set(), inodes: new Set() }
    parseWritableMappings(Buffer.from(maps, 'latin1'), m)
    expect([...m.paths].sort()).toEqual(['/home/u/proj/data.db', '/home/u/proj/with space\nnewline.db', '/home/u/proj/x.jit'])
    expect([...m.inodes].sort()).toEqual([1234, 1237, 1238])
  })
})
