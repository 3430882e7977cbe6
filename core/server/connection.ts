/**
 * What the rest of the main process needs from an opencode server, embedded or remote: where it is,
 * how to authenticate, and its status. The proxy and the IPC handlers only see this interface.
 */
import type { EventEmitter } from 'node:events'
import { request } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { ServerStatus } from '../../shared/ipc-contract'

export interface OpencodeConnection extends EventEmitter {
  readonly url: string | null
  readonly status: ServerStatus
  authorization(): string
  start(): Promise<void>
  stop(): Promise<void>
  restart(): Promise<void>
}

/** GET /global/health with a per-request timeout (a server that is still booting may never answer). */
export function checkHealth(baseUrl: string, authorization: string, timeoutMs: number): Promise<{ version?: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL('/global/health', baseUrl)
    const req = (url.protocol === 'https:' ? httpsRequest : request)(url, { method: 'GET', headers: { authorization }, timeout: timeoutMs }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => {
        if (res.statusCode === 401) return reject(new Error('the server refused the credentials (401)'))
        if (res.statusCode !== 200) return reject(new Error(`health check answered HTTP ${res.statusCode}`))
        try {
          resolve(JSON.parse(body) as { version?: string })
        } catch {
          resolve({})
        }
      })
    })
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', reject)
    req.end()
  })
}
