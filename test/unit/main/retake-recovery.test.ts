/**
 * A retake cut off by Retake's death: the decision at the next start (pure), and the user's kept
 * files, which must survive the process that held them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { decideRecovery } from '../../../core/retake/recovery'
import type { RetakePhase, RetakeRecord } from '../../../core/retake/retake-journal'
import { KeptFiles } from '../../../core/kept-files'

const rec = (phase: RetakePhase, extra: Partial<RetakeRecord> = {}): RetakeRecord => ({
  directory: '/p',
  sessionID: 'ses_1',
  messageID: 'msg_1',
  startedAt: 1,
  phase,
  ...extra,
})

describe('decideRecovery', () => {
  it('rolls back while the server has not reverted: files undone only once a restore may have run', () => {
    expect(decideRecovery(rec('started'), { reverted: false, parts: 2 })).toMatchObject({ kind: 'rollback', undoFiles: false })
    expect(decideRecovery(rec('held', { holdId: 'h' }), { reverted: false, parts: 2 })).toMatchObject({ kind: 'rollback', undoFiles: false })
    expect(decideRecovery(rec('restoring'), { reverted: false, parts: 2 })).toMatchObject({ kind: 'rollback', undoFiles: true })
    expect(decideRecovery(rec('reverting', { restoreId: 'r' }), { reverted: false, parts: 2 })).toMatchObject({ kind: 'rollback', undoFiles: true })
  })

  it('finishes forward once the server reverted, even if the journal did not see the answer', () => {
    expect(decideRecovery(rec('reverting'), { reverted: true, parts: 2 })).toMatchObject({ kind: 'forward', deleteParts: true })
    expect(decideRecovery(rec('reverted'), { reverted: true, parts: 0 })).toMatchObject({ kind: 'forward', deleteParts: false })
    expect(decideRecovery(rec('prompting'), { reverted: true, parts: 0 })).toMatchObject({ kind: 'forward', deleteParts: false })
  })

  it('a rewind cut off after the revert is finished as it is: its message keeps its parts (nothing was to be sent)', () => {
    expect(decideRecovery(rec('reverting', { rewind: true }), { reverted: true, parts: 2 })).toMatchObject({
      kind: 'forward',
      deleteParts: false,
      note: expect.stringContaining('going back'),
    })
    expect(decideRecovery(rec('restored', { rewind: true, restoreId: 'r' }), { reverted: false, parts: 2 })).toMatchObject({ kind: 'rollback', undoFiles: true })
  })

  it('a prompt that reached the server is delivered; one that did not is left to send again', () => {
    expect(decideRecovery(rec('prompting'), { reverted: false, parts: 1 })).toEqual({ kind: 'delivered' })
    expect(decideRecovery(rec('prompting'), { reverted: false, parts: null })).toMatchObject({ kind: 'forward' })
    expect(decideRecovery(rec('prompting'), { reverted: false, parts: 0 })).toMatchObject({ kind: 'forward' })
  })
})

describe('kept files across a crash', () => {
  const dirs: string[] = []
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

  it('a hold is on disk before its id is handed out, and a new process puts the bytes back', () => {
    const root = mkdtempSync(join(tmpdir(), 'retake-kept-'))
    const store = mkdtempSync(join(tmpdir(), 'retake-held-'))
    dirs.push(root, store)
    writeFileSync(join(root, 'mine.txt'), 'my edit\n')
    const id = new KeptFiles(store).hold([
      { root, path: 'mine.txt' },
      { root, path: 'absent.txt' },
    ])
    // The server's revert rewrites the file and creates the absent one; then the process dies.
    writeFileSync(join(root, 'mine.txt'), 'reverted by the server\n')
    writeFileSync(join(root, 'absent.txt'), 'made by the revert\n')
    const next = new KeptFiles(store)
    expect(next.pending()).toEqual([id])
    const back = next.putBack(id)
    expect(back.failed).toEqual([])
    expect(readFileSync(join(root, 'mine.txt'), 'utf8')).toBe('my edit\n')
    expect(() => readFileSync(join(root, 'absent.txt'))).toThrow()
    expect(next.pending()).toEqual([])
  })
})
