/**
 * Runs the embedded opencode server: spawned on 127.0.0.1 with a random port and a random password,
 * its own HOME/XDG dirs under Retake's data dir, ready only once it prints its listening line
 * (requests sent earlier can hang for ever), restarted with backoff when it dies, stopped on quit.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerStatus } from '../../shared/ipc-contract'
import { agentSafeEnv, backoffDelay, parseListeningLine } from './server-logic'
import { openRotatingLog, type RotatingLog } from './rotating-log'
import { checkHealth, type OpencodeConnection } from './connection'
import { clearServerRecord, guardedCommand, parsePidLine, recordServer, stopRecordedOrphan } from './orphan-guard'

export interface EmbeddedServerOptions {
  binary: string
  dataDir: string
  /** An opencode config JSON file passed as OPENCODE_CONFIG. */
  configPath?: string | null
  /** Run with the user's own HOME (their usual opencode config and provider keys). */
  useUserHome?: boolean
  /** The folder the server process starts in. */
  cwd?: string
  extraEnv?: Record<string, string>
  readyTimeoutMs?: number
  restart?: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number }
  version?: string
}

const USERNAME = 'opencode'

export class EmbeddedOpencodeServer extends EventEmitter implements OpencodeConnection {
  private child: ChildProcess | null = null
  /** The opencode process itself (the child is its watchdog wrapper where there is one). */
  private serverPid: number | null = null
  private password = randomBytes(24).toString('base64url')
  private stopping = false
  private restartTimer: NodeJS.Timeout | null = null
  private attempt = 0
  private log: RotatingLog
  url: string | null = null
  status: ServerStatus = { state: 'stopped', kind: 'embedded' }

  constructor(private readonly opts: EmbeddedServerOptions) {
    super()
    this.log = openRotatingLog(join(opts.dataDir, 'logs', 'opencode.log'))
  }

  /** The Authorization header value for the proxy; never sent to the renderer. */
  authorization(): string {
    return `Basic ${Buffer.from(`${USERNAME}:${this.password}`).toString('base64')}`
  }

  /** A restart after a crash is waiting for its backoff delay. */
  get restartPending(): boolean {
    return this.restartTimer !== null
  }

  get pid(): number | undefined {
    return this.serverPid ?? this.child?.pid
  }

  async start(): Promise<void> {
    this.stopping = false
    this.setStatus({ state: this.attempt > 0 ? 'restarting' : 'starting', attempt: this.attempt || undefined })
    try {
      // A server an earlier run left behind (Retake killed before it could stop it) goes first.
      await stopRecordedOrphan(this.opts.dataDir, (l) => this.log.write(l))
      await this.spawnAndWait()
      this.attempt = 0
      this.setStatus({ state: 'ready', version: this.opts.version })
    } catch (err) {
      this.kill()
      this.setStatus({ state: 'failed', error: (err as Error).message })
      throw err
    }
  }

  async stop(): Promise<void> {
    this.stopping = true
    if (this.restartTimer) clearTimeout(this.restartTimer)
    this.restartTimer = null
    await this.kill()
    this.url = null
    this.setStatus({ state: 'stopped' })
    this.log.close()
  }

  async restart(): Promise<void> {
    await this.kill()
    this.attempt = 0
    // A manual restart gets a new password too: nothing that knew the old one keeps access.
    this.password = randomBytes(24).toString('base64url')
    await this.start()
  }

  /** A failure found before starting (a missing or wrong binary): shown as is, no restarts. */
  markFailed(error: string): void {
    this.setStatus({ state: 'failed', error })
  }

  private setStatus(partial: Omit<ServerStatus, 'kind'>) {
    this.status = { kind: 'embedded', ...partial }
    this.emit('status', this.status)
  }

  private env(): NodeJS.ProcessEnv {
    const env = agentSafeEnv(process.env)
    if (!this.opts.useUserHome) {
      const home = join(this.opts.dataDir, 'opencode-home')
      const dirs = {
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_DATA_HOME: join(home, '.local', 'share'),
        XDG_CACHE_HOME: join(home, '.cache'),
        XDG_STATE_HOME: join(home, '.local', 'state'),
      }
      for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true, mode: 0o700 })
      Object.assign(env, dirs, { USERPROFILE: home })
    }
    if (this.opts.configPath) env.OPENCODE_CONFIG = this.opts.configPath
    Object.assign(env, this.opts.extraEnv ?? {})
    env.OPENCODE_SERVER_PASSWORD = this.password
    env.OPENCODE_SERVER_USERNAME = USERNAME
    return env
  }

  private spawnAndWait(): Promise<void> {
    const timeoutMs = this.opts.readyTimeoutMs ?? 30_000
    return new Promise((resolve, reject) => {
      const cmd = guardedCommand(this.opts.binary, ['serve', '--hostname', '127.0.0.1', '--port', '0'])
      const child = spawn(cmd.command, cmd.args, {
        cwd: this.opts.cwd ?? this.opts.dataDir,
        env: this.env(),
        // The wrapper's stdin is the watchdog's pipe: it closes when Retake dies, however it dies.
        stdio: [cmd.wrapped ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      })
      this.child = child
      this.serverPid = null
      const noteServer = (pid: number) => {
        this.serverPid = pid
        recordServer(this.opts.dataDir, pid, this.opts.binary)
      }
      if (!cmd.wrapped && child.pid) noteServer(child.pid)
      let settled = false
      let stdoutBuf = ''
      const fail = (err: Error) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        reject(err)
      }
      const timer = setTimeout(() => fail(new Error(`opencode did not report ready within ${timeoutMs} ms (see logs/opencode.log)`)), timeoutMs)
      child.stdout!.on('data', (chunk: Buffer) => {
        this.log.write(chunk)
        if (settled) return
        stdoutBuf += chunk.toString('utf8')
        if (cmd.wrapped && this.child === child && this.serverPid === null) {
          const pid = parsePidLine(stdoutBuf)
          if (pid) noteServer(pid)
        }
        const url = parseListeningLine(stdoutBuf)
        if (!url) return
        this.url = url
        // The line means HTTP is served; a health check with a short timeout confirms the password works.
        checkHealth(url, this.authorization(), 5_000).then(
          () => {
            if (settled) return
            settled = true
            clearTimeout(timer)
            resolve()
          },
          (err: Error) => fail(new Error(`opencode started but its health check failed: ${err.message}`)),
        )
      })
      child.stderr!.on('data', (chunk: Buffer) => this.log.write(chunk))
      child.on('error', (err) => fail(new Error(`could not start opencode (${this.opts.binary}): ${err.message}`)))
      child.on('exit', (code, signal) => {
        this.log.write(`\n[retake] opencode exited (code ${code}, signal ${signal})\n`)
        // kill() lets go of the child before it exits; only the current child dying is a crash.
        const crashed = this.child === child
        if (crashed) {
          this.child = null
          if (this.serverPid) clearServerRecord(this.opts.dataDir, this.serverPid)
          this.serverPid = null
        }
        if (!settled) return fail(new Error(`opencode exited before it was ready (code ${code}, signal ${signal}); see logs/opencode.log`))
        if (crashed && !this.stopping) this.scheduleRestart(`opencode exited unexpectedly (code ${code}, signal ${signal})`)
      })
    })
  }

  private scheduleRestart(reason: string) {
    const policy = this.opts.restart ?? { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 15_000 }
    this.url = null
    this.attempt += 1
    if (this.attempt > policy.maxAttempts) {
      this.setStatus({ state: 'failed', error: `${reason}; gave up after ${policy.maxAttempts} restarts` })
      return
    }
    const delay = backoffDelay(this.attempt, policy.baseDelayMs, policy.maxDelayMs)
    this.setStatus({ state: 'restarting', error: reason, attempt: this.attempt, nextRetryAt: Date.now() + delay })
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null
      if (this.stopping) return
      this.start().catch(() => {
        if (!this.stopping) this.scheduleRestart('opencode failed to restart')
      })
    }, delay)
  }

  /** SIGTERM, then SIGKILL if it is still alive (it sometimes ignores SIGTERM for seconds). */
  private kill(): Promise<void> {
    const child = this.child
    const serverPid = this.serverPid
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
    this.child = null
    this.serverPid = null
    return new Promise((resolve) => {
      // The server itself, not only its wrapper: a wrapper killed alone would leave it running.
      const force = setTimeout(() => {
        if (serverPid && serverPid !== child.pid) killQuietly(serverPid, 'SIGKILL')
        child.kill('SIGKILL')
      }, 2_000)
      child.once('exit', () => {
        clearTimeout(force)
        if (serverPid) clearServerRecord(this.opts.dataDir, serverPid)
        resolve()
      })
      child.kill('SIGTERM')
    })
  }
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch {
    /* already gone */
  }
}
