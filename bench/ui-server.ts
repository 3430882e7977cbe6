// The UI benchmark's world: the fake LLM, one real opencode server started as `opencode web` (so the
// same process serves opencode's own web UI and the API Retake's --remote uses: one database, one
// session), and the long session filled through real prompts. Everything listens on 127.0.0.1.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { createOpencodeClient, type OpencodeClient } from '@opencode-ai/sdk/v2/client'
import { startFakeLlm, type FakeLlm } from '../test/support/fake-llm'
import { isolatedOpencodeEnv, makeOpencodeConfig } from '../test/support/opencode-config'

export interface BenchWorld {
  fake: FakeLlm
  root: string
  project: string
  url: string
  password: string
  client: OpencodeClient
  /** Runs the same opencode binary as a CLI on the same data (export, import). */
  opencode(args: string[]): string
  close(): Promise<void>
}

/** Waits for a line matching `re` on the child's output, or fails after `ms` / on exit. */
export function waitForLine(child: ChildProcess, re: RegExp, ms: number, what: string): Promise<RegExpExecArray> {
  let out = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no ${re} within ${ms} ms:\n${out}`)), ms)
    const onData = (c: Buffer) => {
      out += c.toString()
      // Colour codes around the URL (opencode web prints it styled).
      // eslint-disable-next-line no-control-regex -- ESC is what starts a colour code
      const m = re.exec(out.replace(/\x1b\[[0-9;]*m/g, ''))
      if (m) {
        clearTimeout(timer)
        resolve(m)
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${what} exited (${code}):\n${out}`))
    })
  })
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
  })
}

export async function startWorld(): Promise<BenchWorld> {
  const fake = await startFakeLlm()
  const root = mkdtempSync(join(tmpdir(), 'retake-bench-ui-'))
  const project = join(root, 'project')
  mkdirSync(project, { recursive: true })
  const config = makeOpencodeConfig({ fakeBaseUrl: fake.baseUrl, anthropicBaseUrl: fake.anthropicBaseUrl }) as Record<string, unknown>
  // A thousand turns of history must not be compacted away half-way through the fill.
  const configPath = join(root, 'opencode.json')
  writeFileSync(configPath, JSON.stringify({ ...config, compaction: { auto: false, prune: false } }))
  const password = randomBytes(16).toString('hex')
  const binary = join(process.cwd(), 'node_modules/.bin/opencode')
  const env = { ...process.env, ...isolatedOpencodeEnv(join(root, 'oc')), OPENCODE_CONFIG: configPath }
  const server = spawn(binary, ['web', '--hostname', '127.0.0.1', '--port', '0'], {
    cwd: project,
    env: { ...env, OPENCODE_SERVER_PASSWORD: password },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    const m = await waitForLine(server, /Web interface:\s+(http:\/\/127\.0\.0\.1:\d+)/, 60_000, 'opencode web')
    const url = m[1]!
    const authorization = `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}`
    const client = createOpencodeClient({ baseUrl: url, directory: project, headers: { authorization } })
    return {
      fake,
      root,
      project,
      url,
      password,
      client,
      opencode: (args) => execFileSync(binary, args, { cwd: project, env, maxBuffer: 1 << 30, timeout: 120_000 }).toString(),
      async close() {
        await stopChild(server)
        await fake.close()
        rmSync(root, { recursive: true, force: true })
      },
    }
  } catch (err) {
    await stopChild(server)
    await fake.close()
    throw err
  }
}

/** A user turn in markdown with a code block; the fake answers it back (`echo: …`), so both sides carry code. */
export function turnText(i: number): string {
  return [
    `Turn ${i}: **refactor** the \`parse\` step and keep the [docs](https://example.com/${i}) in sync.`,
    '',
    '```ts',
    `export function parse${i}(input: string): number[] {`,
    `  return input.split(',').map((s) => Number(s.trim()) * ${i})`,
    '}',
    '```',
    '',
    `- item one of ${i}`,
    `- item two with \`code ${i}\``,
  ].join('\n')
}

export const LAST_MARKER = 'LAST-TURN-MARKER'
export const FIRST_MARKER = 'FIRST-TURN-MARKER'
export const SHORT_MARKER = 'SHORT-SESSION-MARKER'

// opencode's ids: a prefix, 12 hex digits of (ms × 4096 + counter, its low 48 bits) — inverted for sessions, so the
// newest sorts first — then 14 random base62 characters. Imported turns get ids of the same shape,
// ascending in the order of the turns, as opencode would have given them.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
let counter = 0
function makeId(prefix: string, ms: number, descending = false): string {
  let v = (BigInt(ms) * 4096n + BigInt(counter++ % 4096)) & 0xffffffffffffn
  if (descending) v = ~v & 0xffffffffffffn
  const tail = Array.from(randomBytes(14), (b) => BASE62[b % 62]).join('')
  return `${prefix}_${v.toString(16).padStart(12, '0')}${tail}`
}

type Exported = { info: Record<string, unknown> & { id: string }; messages: Array<{ info: Record<string, any>; parts: Array<Record<string, any>> }> }

/**
 * Fills a session with `turns` turns. One turn is a real prompt (the fake answers at once); opencode
 * exports that session, and the export is grown to `turns` copies of that turn — each with its own
 * text, ids and times — and imported with `opencode import` (a real prompt costs ~0.7 s here, so
 * 1,000 of them would take over ten minutes). A short session made last is the one both apps show first.
 */
export async function fillSession(world: BenchWorld, turns: number, log: (s: string) => void): Promise<{ long: string; short: string }> {
  const created = await world.client.session.create({ title: 'template' })
  const template = created.data!.id
  const r = await world.client.session.prompt({ sessionID: template, parts: [{ type: 'text', text: turnText(1) }] })
  if (r.error || (r.data?.info as { error?: unknown } | undefined)?.error) throw new Error(`template turn failed: ${JSON.stringify(r.error ?? r.data?.info)}`)
  const exported = JSON.parse(world.opencode(['export', template])) as Exported
  const [userTpl, assistantTpl] = exported.messages
  if (!userTpl || !assistantTpl) throw new Error('the exported template has no turn')
  const t0 = Date.now() - turns * 2_000
  const sessionID = makeId('ses', t0, true)
  const messages: Exported['messages'] = []
  for (let i = 1; i <= turns; i++) {
    const text = i === turns ? `${turnText(i)}\n\n${LAST_MARKER}` : i === 1 ? `${turnText(i)}\n\n${FIRST_MARKER}` : turnText(i)
    const at = t0 + i * 2_000
    const userID = makeId('msg', at)
    const assistantID = makeId('msg', at + 1)
    const clone = (m: Exported['messages'][number], id: string, extra: Record<string, unknown>, body: string) => ({
      info: { ...m.info, ...extra, id, sessionID, time: m.info.role === 'user' ? { created: at } : { created: at + 1, completed: at + 2 } },
      parts: m.parts.map((p) => ({ ...p, id: makeId('prt', at + 1), sessionID, messageID: id, ...(p.type === 'text' ? { text: body } : {}) })),
    })
    messages.push(clone(userTpl, userID, {}, text))
    messages.push(clone(assistantTpl, assistantID, { parentID: userID }, `echo: ${text}`))
  }
  const session = { ...exported.info, id: sessionID, slug: 'long-session', title: 'Long session (bench)', time: { created: t0, updated: t0 + turns * 2_000 } }
  const file = join(world.root, 'long-session.json')
  writeFileSync(file, JSON.stringify({ info: session, messages }))
  world.opencode(['import', file])
  await world.client.session.delete({ sessionID: template })
  const check = await world.client.session.messages({ sessionID })
  if (check.data?.length !== turns * 2) throw new Error(`imported session has ${check.data?.length} messages, expected ${turns * 2}`)
  log(`  ${turns} turns in session ${sessionID} (1 real prompt, then opencode import)`)
  // The newest session, so both apps start on it and open the long one when asked.
  const short = (await world.client.session.create({ title: 'Short session (bench)' })).data!.id
  await world.client.session.prompt({ sessionID: short, parts: [{ type: 'text', text: `Hello.\n\n${SHORT_MARKER}` }] })
  return { long: sessionID, short }
}
