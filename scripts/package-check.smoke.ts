/**
 * package:check's last step: the PACKAGED main bundle, run in Node with a stand-in `electron` module
 * (scripts/package-check.fake-electron.cjs), must start its own opencode server from resources/bin.
 */
import { offlineOpencodeEnv } from '../test/support/opencode-config'
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { extractAll } from '@electron/asar'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))

function assert(ok: unknown, message: string): asserts ok {
  if (!ok) throw new Error(`package:check: ${message}`)
}

export interface SmokeReport {
  serverState: string
  serverVersion?: string
  csp: boolean
  traversalStatus: number
  menu: string[]
  mainLog: boolean
  seconds: number
  /** The error-screen text for a package without its binary and with another opencode version. */
  brokenBinaryErrors?: { missing: string; wrongVersion: string }
}

/** Keeps the spawned opencode off the network (this machine is offline); a user's app runs without these. */
const OFFLINE_OPENCODE_ENV = offlineOpencodeEnv()

type Message = Record<string, unknown>
type Status = { state: string; version?: string; error?: string }
const isStatus = (m: Message) => m.type === 'send' && m.name === 'server.status'

/** Starts dist-electron/main.cjs (extracted from the asar) in Node with the stand-in `electron` module. */
function startPackagedMain(appDir: string, resources: string, dataDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...OFFLINE_OPENCODE_ENV, RETAKE_SMOKE_APP_DIR: appDir, RETAKE_SMOKE_RESOURCES: resources, RETAKE_SMOKE_DATA: dataDir }
  delete env.RETAKE_DATA_DIR
  const child = spawn(process.execPath, ['--require', join(ROOT, 'scripts', 'package-check.fake-electron.cjs'), join(appDir, 'dist-electron', 'main.cjs')], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
  const messages: Message[] = []
  const waiters: Array<() => void> = []
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      messages.push(JSON.parse(line))
    } catch {
      return // main's own stdout, not the stand-in's
    }
    for (const w of waiters.splice(0)) w()
  })
  const waitFor = (pred: (m: Message) => boolean, what: string, ms: number) =>
    new Promise<Message>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`packaged main: no ${what} within ${ms} ms\n${stderr.slice(-2000)}`)), ms)
      const check = () => {
        const hit = messages.find(pred)
        if (hit) {
          clearTimeout(timer)
          res(hit)
        } else waiters.push(check)
      }
      check()
    })
  return {
    messages,
    waitFor,
    send: (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`),
    settled: async () => (await waitFor((m) => isStatus(m) && ['ready', 'failed'].includes((m.payload as Status).state), 'server status ready/failed', 60_000)).payload as Status,
    quit: async () => {
      child.stdin.write(`${JSON.stringify({ type: 'quit' })}\n`)
      return Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000))])
    },
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}

/**
 * The packaged main, as a user's app starts it (app.isPackaged, process.resourcesPath = the package's
 * resources/): it must find resources/bin/opencode, start it and report `ready`, serve the UI over
 * app:// with the CSP, refuse a traversal, set the menu, write logs/main.log, and stop the server on quit.
 */
export async function smokePackagedMain(asarPath: string, resources: string, work: string): Promise<SmokeReport> {
  const started = Date.now()
  const appDir = join(work, 'app-extracted') // plain Node cannot read inside an asar; Electron can
  const dataDir = join(work, 'smoke-data')
  extractAll(asarPath, appDir)
  const main = startPackagedMain(appDir, resources, dataDir)
  try {
    const status = await main.settled()
    assert(status.state === 'ready', `packaged main's opencode server failed: ${status.error}`)
    main.send({ type: 'fetch', url: 'app://retake/' })
    const index = await main.waitFor((m) => m.type === 'response' && m.url === 'app://retake/', 'app:// response', 10_000)
    assert(index.status === 200 && String(index.body).includes('<'), `app://retake/ answered ${index.status} ${index.error ?? ''}`)
    assert(typeof index.csp === 'string' && /default-src/.test(index.csp) && /script-src/.test(index.csp), 'app://retake/ has no Content-Security-Policy')
    const evil = 'app://retake/..%2f..%2fpackage.json'
    main.send({ type: 'fetch', url: evil })
    const refused = await main.waitFor((m) => m.type === 'response' && m.url === evil, 'app:// traversal response', 10_000)
    assert(refused.status === 400, `app:// traversal answered ${refused.status}`)
    const menu = (main.messages.find((m) => m.type === 'menu')?.labels as string[] | undefined) ?? []
    assert(menu.length >= 4, 'packaged main set no application menu')
    const code = await main.quit()
    assert(
      main.messages.some((m) => isStatus(m) && (m.payload as Status).state === 'stopped'),
      'the server was not stopped on quit',
    )
    assert(code === 0, `packaged main did not quit cleanly (${code})`)
    const mainLog = join(dataDir, 'logs', 'main.log')
    assert(existsSync(mainLog) && readFileSync(mainLog, 'utf8').includes('packaged=true'), 'logs/main.log was not written')
    return {
      serverState: status.state,
      serverVersion: status.version,
      csp: true,
      traversalStatus: 400,
      menu: menu.map((l) => l.replace('&', '')),
      mainLog: true,
      seconds: (Date.now() - started) / 1000,
    }
  } finally {
    main.kill()
  }
}

/**
 * What a user sees when the package's binary is missing or another version: status `failed` with the
 * error screen's text. Reuses the asar extracted by smokePackagedMain; returns the two messages.
 */
export async function smokeBrokenBinary(work: string): Promise<{ missing: string; wrongVersion: string }> {
  const appDir = join(work, 'app-extracted')
  const failure = async (name: string, setup: (resources: string) => void) => {
    const resources = join(work, `resources-${name}`)
    mkdirSync(join(resources, 'bin'), { recursive: true })
    setup(resources)
    const main = startPackagedMain(appDir, resources, join(work, `data-${name}`))
    try {
      const status = await main.settled()
      assert(status.state === 'failed', `a ${name} binary left the server ${status.state}`)
      await main.quit()
      return status.error ?? ''
    } finally {
      main.kill()
    }
  }
  const missing = await failure('missing', () => {})
  assert(/not found[\s\S]*reinstall/i.test(missing), `missing binary: unclear message "${missing}"`)
  const wrongVersion = await failure('wrong-version', (resources) => {
    const bin = join(resources, 'bin', 'opencode')
    writeFileSync(bin, '#!/bin/sh\necho 0.0.1\n')
    chmodSync(bin, 0o755)
  })
  assert(/version 0\.0\.1; Retake needs/.test(wrongVersion), `wrong version: unclear message "${wrongVersion}"`)
  return { missing, wrongVersion }
}
