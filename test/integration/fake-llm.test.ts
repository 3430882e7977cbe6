/**
 * Proves the fake LLM works through a REAL opencode server (1.18.33): echo, reasoning, tool calls
 * that change files, provider errors, per-model behaviour, scripts and the Anthropic adapter. The
 * last block checks failure modes opencode would retry for ~72 s directly over HTTP instead.
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createOpencodeClient } from '@opencode-ai/sdk/v2'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startFakeLlm } from '../support/fake-llm'
import type { FakeLlm } from '../support/fake-llm'
import { isolatedOpencodeEnv, makeOpencodeConfig } from '../support/opencode-config'

const OPENCODE = fileURLToPath(new URL('../../node_modules/.bin/opencode', import.meta.url))

/** Tiny local spawner (the real server manager lives in core/server/). */
async function startOpencode(root: string, configFile: string): Promise<{ url: string; password: string; child: ChildProcess }> {
  const password = randomBytes(16).toString('hex')
  const child = spawn(OPENCODE, ['serve', '--hostname', '127.0.0.1', '--port', '0'], {
    env: { ...process.env, ...isolatedOpencodeEnv(root), OPENCODE_SERVER_PASSWORD: password, OPENCODE_CONFIG: configFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  // Requests sent before this line can hang forever (protocol reference §7), so wait for it.
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`opencode did not start:\n${output}`)), 30_000)
    const onData = (d: Buffer) => {
      output += String(d)
      const m = /opencode server listening on (http:\/\/\S+)/.exec(output)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`opencode exited (${code}):\n${output}`)))
  })
  return { url, password, child }
}

async function stopOpencode(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  // SIGTERM is usually enough within ~70 ms, but not always (reference §7).
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000)
  await exited
  clearTimeout(timer)
}

// A valid 1×1 PNG: opencode passes image bytes through to the provider.
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

let fake: FakeLlm
let root: string
let project: string
let server: Awaited<ReturnType<typeof startOpencode>>
let client: ReturnType<typeof createOpencodeClient>

beforeAll(async () => {
  fake = await startFakeLlm()
  root = mkdtempSync(join(tmpdir(), 'retake-fake-llm-'))
  project = join(root, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'README.md'), 'hello\n')
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project, stdio: 'ignore' })
  git('init', '-q')
  git('add', '.')
  git('-c', 'user.email=test@example.com', '-c', 'user.name=test', 'commit', '-qm', 'init')
  const configFile = join(root, 'opencode.json')
  writeFileSync(configFile, JSON.stringify(makeOpencodeConfig({ fakeBaseUrl: fake.baseUrl, anthropicBaseUrl: fake.anthropicBaseUrl })))
  server = await startOpencode(root, configFile)
  client = createOpencodeClient({
    baseUrl: server.url,
    directory: project,
    headers: { Authorization: `Basic ${Buffer.from(`opencode:${server.password}`).toString('base64')}` },
  })
})

afterAll(async () => {
  if (server) await stopOpencode(server.child)
  await fake?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

async function prompt(text: string, model = 'fake/echo') {
  const created = await client.session.create({})
  const sessionID = created.data!.id
  const [providerID, modelID] = model.split('/') as [string, string]
  const r = await client.session.prompt({ sessionID, model: { providerID, modelID }, parts: [{ type: 'text', text }] })
  expect(r.response?.status).toBe(200)
  const parts = r.data!.parts
  const textOf = (type: string) =>
    parts
      .filter((p) => p.type === type)
      .map((p) => ('text' in p ? p.text : ''))
      .join('')
  return { info: r.data!.info, parts, text: textOf('text'), reasoning: textOf('reasoning'), sessionID }
}

describe('fake LLM through a real opencode server', () => {
  it('echoes the last user message and tells title calls apart from turns', async () => {
    const r = await prompt('hello fake')
    expect(r.info.error).toBeUndefined()
    expect(r.text).toBe('echo: hello fake')
    const turn = fake.chatRequests().at(-1)!
    expect(turn.lastUserText()).toBe('hello fake')
    expect(turn.toolNames).toEqual(expect.arrayContaining(['bash', 'edit', 'write']))
    const title = await fake.waitForRequest((q) => q.kind === 'title', 10_000)
    expect(title.lastUserText()).toBe('hello fake')
  })

  it('REASON streams reasoning before the text', async () => {
    const r = await prompt('think REASON please')
    expect(r.reasoning).toContain('Let me think')
    expect(r.text).toBe('echo: think REASON please')
  })

  it('WRITE, EDIT and BASH run as tool calls, one per step, and change files', async () => {
    const r = await prompt('WRITE notes/a.txt alpha beta ; EDIT notes/a.txt alpha gamma ; BASH echo ran > bash-out.txt')
    expect(r.text).toBe('done: write, edit, bash')
    expect(readFileSync(join(project, 'notes/a.txt'), 'utf8')).toBe('gamma beta')
    expect(readFileSync(join(project, 'bash-out.txt'), 'utf8').trim()).toBe('ran')
    const steps = fake.chatRequests().filter((q) => q.lastUserText().startsWith('WRITE notes/a.txt'))
    expect(steps.map((q) => q.reply)).toEqual(['tool:write', 'tool:edit', 'tool:bash', 'text'])
  })

  it('attachments reach the model, but only the typed text drives keywords and the echo', async () => {
    const sessionID = (await client.session.create({})).data!.id
    const fileBody = 'file body that says FAIL400\n'
    const r = await client.session.prompt({
      sessionID,
      parts: [
        { type: 'text', text: 'see attached' },
        { type: 'file', mime: 'text/plain', filename: 'notes.txt', url: `data:text/plain;base64,${Buffer.from(fileBody).toString('base64')}` },
        { type: 'file', mime: 'image/png', filename: 'pixel.png', url: `data:image/png;base64,${PIXEL_PNG}` },
      ],
    })
    const text = r.data!.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('')
    expect(text).toBe('echo: see attached')
    const q = fake.chatRequests().at(-1)!
    expect(q.lastUserText()).toBe('see attached')
    const content = JSON.stringify(q.lastUserContent())
    expect(content).toContain('file body that says FAIL400')
    expect(content).toContain('"type":"image_url"')
  })

  it('FAIL400 ends the turn with an APIError carrying status 400', async () => {
    const r = await prompt('FAIL400 now')
    const error = r.info.role === 'assistant' ? r.info.error : undefined
    expect(error?.name).toBe('APIError')
    const data = error?.data as { statusCode?: number; message?: string; isRetryable?: boolean }
    expect(data.statusCode).toBe(400)
    expect(data.isRetryable).toBe(false)
    expect(data.message).toContain('Injected failure FAIL400')
  })

  it('failModel makes one model fail while another answers', async () => {
    fake.failModel('echo', 400)
    try {
      const bad = await prompt('to the failing model')
      expect(bad.info.role === 'assistant' && bad.info.error?.name).toBe('APIError')
      const good = await prompt('to the second model', 'fake/echo-2')
      expect(good.text).toBe('echo: to the second model')
      expect(fake.chatRequests('echo-2').at(-1)!.lastUserText()).toBe('to the second model')
    } finally {
      fake.failModel('echo', null)
    }
  })

  it('script overrides the keyword behaviour for the next turn', async () => {
    fake.script({ kind: 'text', text: 'scripted answer' })
    const r = await prompt('FAIL400 would fail without the script')
    expect(r.text).toBe('scripted answer')
  })

  it('retryable errors with retry-after-ms: opencode retries at once, then recovers or gives up', async () => {
    const before = fake.requests.length
    fake.script({ kind: 'error', status: 500, retryAfterMs: 20 }, { kind: 'error', status: 429, retryAfterMs: 20 })
    const ok = await prompt('recovers after two failures')
    expect(ok.text).toBe('echo: recovers after two failures')
    expect(
      fake
        .chatRequests()
        .filter((q) => q.seq > before)
        .map((q) => q.reply),
    ).toEqual(['error:500', 'error:429', 'text'])

    const start = fake.requests.length
    fake.script(...Array.from({ length: 6 }, () => ({ kind: 'error', status: 500, retryAfterMs: 20 }) as const))
    const bad = await prompt('gives up after the retries')
    const error = bad.info.role === 'assistant' ? bad.info.error : undefined
    expect(error?.data).toMatchObject({ statusCode: 500, isRetryable: true })
    // One attempt plus opencode's 5 retries.
    expect(fake.chatRequests().filter((q) => q.seq > start)).toHaveLength(6)
    fake.reset()
  })

  it('summary (compaction) calls are side calls and ignore keywords quoted from the conversation', async () => {
    fake.script({ kind: 'text', text: 'ok' })
    const r = await prompt('FAIL400 appears in this turn')
    expect(r.text).toBe('ok')
    const before = fake.requests.length
    const summarized = await client.session.summarize({ sessionID: r.sessionID, providerID: 'fake', modelID: 'echo' })
    expect(summarized.response?.status).toBe(200)
    const side = await fake.waitForRequest((q) => q.seq > before && q.kind === 'other', 10_000)
    expect(side.lastUserText()).toContain('FAIL400')
    expect(side.reply).toBe('text')
    expect(fake.chatRequests().some((q) => q.seq > before)).toBe(false)
  })

  it('SLOW streams at a pace that session.abort can interrupt mid-stream', async () => {
    const sessionID = (await client.session.create({})).data!.id
    const controller = new AbortController()
    const events = await client.event.subscribe({}, { signal: controller.signal })
    const before = fake.requests.length
    const pending = client.session.prompt({ sessionID, parts: [{ type: 'text', text: 'SLOW stream' }] })
    const request = await fake.waitForRequest((q) => q.seq > before && q.kind === 'chat', 10_000)
    // Stop once a couple of text deltas have arrived, i.e. genuinely mid-stream.
    let deltas = 0
    for await (const event of events.stream) {
      if (event.type === 'message.part.delta' && event.properties.sessionID === sessionID && ++deltas >= 2) break
    }
    controller.abort()
    await client.session.abort({ sessionID })
    const r = await pending
    expect(r.data!.info.role === 'assistant' && r.data!.info.error?.name).toBe('MessageAbortedError')
    await vi.waitFor(() => expect(request.clientAborted).toBe(true), { timeout: 3_000 })
    expect(request.endedAt! - request.time).toBeLessThan(5_000)
  })

  it('the Anthropic adapter gets the same behaviour (thinking + text, tool calls)', async () => {
    const r = await prompt('hi claude REASON', 'anth/claude-fake')
    expect(r.text).toBe('echo: hi claude REASON')
    expect(r.reasoning).toContain('Let me think')
    const q = fake.chatRequests('claude-fake').at(-1)!
    expect(q.api).toBe('anthropic')
    expect(q.path).toBe('/anthropic/v1/messages')
    const tool = await prompt('WRITE from-claude.txt hi there', 'anth/claude-fake')
    expect(tool.text).toBe('done: write')
    expect(readFileSync(join(project, 'from-claude.txt'), 'utf8')).toBe('hi there')
  })
})

describe('fake LLM failure modes over plain HTTP', () => {
  const post = (text: string, signal?: AbortSignal) =>
    fetch(`${fake.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'echo', stream: true, messages: [{ role: 'user', content: text }], tools: [{ type: 'function', function: { name: 'bash' } }] }),
      signal,
    })

  it.each([429, 500, 401])('FAIL%i returns that status with an OpenAI-style error body', async (status) => {
    const res = await post(`FAIL${status}`)
    expect(res.status).toBe(status)
    const body = (await res.json()) as { error: { message: string } }
    expect(body.error.message).toContain(`Injected failure FAIL${status}`)
  })

  it('FAILMID sends chunks then drops the connection', async () => {
    const res = await post('FAILMID')
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow()
  })

  it('HANG never answers until the client gives up; close() still returns', async () => {
    await expect(post('HANG', AbortSignal.timeout(300))).rejects.toThrow()
    const other = await startFakeLlm()
    const pending = fetch(`${other.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'HANG' }] }) })
    await other.waitForRequest(() => true, 2_000)
    await other.close()
    await expect(pending).rejects.toThrow()
  })

  it('did not let opencode install plugins from the network', () => {
    expect(existsSync(join(root, 'config', 'opencode', 'node_modules', '@opencode-ai'))).toBe(false)
  })
})
