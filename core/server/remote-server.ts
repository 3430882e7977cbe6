/**
 * An opencode server the user already runs (`--remote URL`, password from RETAKE_REMOTE_PASSWORD or
 * the settings). Retake only health-checks it; it neither starts nor stops it.
 */
import { EventEmitter } from 'node:events'
import type { ServerStatus } from '../../shared/ipc-contract'
import { checkHealth, type OpencodeConnection } from './connection'

export interface RemoteServerOptions {
  url: string
  password?: string
  username?: string
}

export class RemoteOpencodeServer extends EventEmitter implements OpencodeConnection {
  status: ServerStatus = { state: 'stopped', kind: 'remote' }
  readonly url: string

  constructor(private readonly opts: RemoteServerOptions) {
    super()
    this.url = opts.url.replace(/\/$/, '')
  }

  authorization(): string {
    const user = this.opts.username ?? 'opencode'
    return `Basic ${Buffer.from(`${user}:${this.opts.password ?? ''}`).toString('base64')}`
  }

  async start(): Promise<void> {
    this.setStatus({ state: 'starting' })
    try {
      const health = await checkHealth(this.url, this.authorization(), 5_000)
      this.setStatus({ state: 'ready', version: health.version })
    } catch (err) {
      this.setStatus({ state: 'failed', error: `remote opencode server at ${this.url}: ${(err as Error).message}` })
      throw err
    }
  }

  async stop(): Promise<void> {
    this.setStatus({ state: 'stopped' })
  }

  async restart(): Promise<void> {
    await this.start()
  }

  private setStatus(partial: Omit<ServerStatus, 'kind'>) {
    this.status = { kind: 'remote', ...partial }
    this.emit('status', this.status)
  }
}
