/**
 * The embedded server manager against the real opencode binary: ready only after the listening line,
 * credentials enforced, restarted with backoff after a crash, stopped for good on stop().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServerStatus } from '../../shared/ipc-contract'
import { EmbeddedOpencodeServer } from '../../core/server/opencode-server'
import { resolveOpencodeBinary } from '../../core/server/opencode-binary'

const root = mkdtempSync(join(tmpdir(), 'retake-mgr-'))
const configPath = join(root, 'opencode.json')
writeFileSync(configPath, JSON.stringify({ $schema: 'https://opencode.ai/config.json', autoupdate: false, share: 'disabled' }))

let server: EmbeddedOpencodeServer
const statuses: ServerStatus[] = []

function waitForStatus(pred: (s: ServerStatus) => boolean, timeoutMs = 30_000): Promise<ServerStatus> {
  if (pred(server.status)) return Promise.resolve(server.status)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`status not reached; last ${JSON.stringify(server.status)}`)), timeoutMs)
    const on = (s: ServerStatus) => {
      if (!pred(s)) return
      clearTimeout(timer)
      server.off('status', on)
      resolve(s)
    }
    server.on('status', on)
  })
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

beforeAll(async () => {
  server = new EmbeddedOpencodeServer({
    binary: resolveOpencodeBinary({ appRoot: process.cwd() }),
    dataDir: join(root, 'data'),
    configPath,
    extraEnv: { npm_config_registry: 'http://127.0.0.1:9/' },
    restart: { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 1000 },
    version: '1.18.33',
  })
  server.on('status', (s: ServerStatus) => statuses.push(s))
  await server.start()
})

afterAll(async () => {
  await server?.stop()
  rmSync(root, { recursive: true, force: true })
})

describe('embedded opencode server', () => {
  it('is ready on a random loopback port and reports starting → ready', async () => {
    expect(server.status).toMatchObject({ state: 'ready', kind: 'embedded', version: '1.18.33' })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(statuses.map((s) => s.state).slice(0, 2)).toEqual(['starting', 'ready'])
  })

  it('answers with its credentials and refuses requests without them', async () => {
    const ok = await fetch(`${server.url}/global/health`, { headers: { authorization: server.authorization() } })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ healthy: true })
    const anon = await fetch(`${server.url}/global/health`)
    expect(anon.status).toBe(401)
    const wrong = await fetch(`${server.url}/session`, { headers: { authorization: `Basic ${Buffer.from('opencode:guess').toString('base64')}` } })
    expect(wrong.status).toBe(401)
  })

  it('keeps its own HOME under the data dir and logs to the data dir', () => {
    const log = readFileSync(join(root, 'data', 'logs', 'opencode.log'), 'utf8')
    expect(log).toContain('opencode server listening on')
    // The password must not be written anywhere a log reader would find it.
    expect(log).not.toContain(server.authorization().slice('Basic '.length))
  })

  it('restarts after a crash and is ready again', async () => {
    const pid = server.pid!
    const before = server.url
    process.kill(pid, 'SIGKILL')
    const restarting = await waitForStatus((s) => s.state === 'restarting')
    expect(restarting).toMatchObject({ attempt: 1, error: expect.stringContaining('exited unexpectedly') })
    expect(restarting.nextRetryAt).toBeGreaterThan(Date.now() - 1000)
    expect(server.restartPending).toBe(true)
    await waitForStatus((s) => s.state === 'ready')
    expect(server.restartPending).toBe(false)
    expect(server.pid).not.toBe(pid)
    expect(server.url).not.toBeNull()
    const res = await fetch(`${server.url}/global/health`, { headers: { authorization: server.authorization() } })
    expect(res.status).toBe(200)
    expect(before).toMatch(/^http/)
  })

  it('a manual restart replaces the process without leaving the old one or starting a third', async () => {
    const oldPid = server.pid!
    const seen: ServerStatus[] = []
    const on = (s: ServerStatus) => seen.push(s)
    server.on('status', on)
    await server.restart()
    expect(server.status.state).toBe('ready')
    expect(processAlive(oldPid)).toBe(false)
    // The old process's exit was handled before restart() resolved (kill waits for it): a crash
    // restart wrongly scheduled by it would be pending now, and would have said 'restarting'.
    expect(server.restartPending).toBe(false)
    server.off('status', on)
    expect(seen.map((s) => s.state)).toEqual(['starting', 'ready'])
  })

  it('stops the process for good', async () => {
    const pid = server.pid!
    await server.stop()
    expect(server.status.state).toBe('stopped')
    expect(processAlive(pid)).toBe(false)
    // Nothing will bring it back: no crash restart is waiting.
    expect(server.restartPending).toBe(false)
  })
})
