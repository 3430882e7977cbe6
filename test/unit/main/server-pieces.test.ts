import { describe, expect, it } from 'vitest'
import { backoffDelay, parseListeningLine } from '../../../core/server/server-logic'
import { candidatePaths, resolveOpencodeBinary } from '../../../core/server/opencode-binary'
import { downstreamHeaders, upstreamHeaders, upstreamUrl } from '../../../core/server/opencode-proxy'
import { isAllowedOpencodeRoute } from '../../../shared/opencode-routes'

describe('parseListeningLine', () => {
  it('waits for the line, then gives the URL', () => {
    expect(parseListeningLine('Warning: something\n')).toBeNull()
    expect(parseListeningLine('opencode server listening on http://127.0.0.1:41234\n')).toBe('http://127.0.0.1:41234')
  })
})

describe('backoffDelay', () => {
  it('doubles and caps', () => {
    expect([1, 2, 3, 4, 10].map((n) => backoffDelay(n, 500, 4000))).toEqual([500, 1000, 2000, 4000, 4000])
  })
})

describe('opencode binary resolution', () => {
  it('prefers the packaged resources folder, then node_modules', () => {
    const paths = candidatePaths({ appRoot: '/app', resourcesPath: '/res', platform: 'linux', arch: 'x64' })
    expect(paths[0]).toBe('/res/bin/opencode')
    expect(paths).toContain('/app/node_modules/opencode-linux-x64/bin/opencode')
    expect(paths).toContain('/app/node_modules/opencode-linux-x64-baseline/bin/opencode')
  })
  it('uses opencode’s platform words and .exe on Windows', () => {
    const paths = candidatePaths({ appRoot: 'C:/app', platform: 'win32', arch: 'x64', preferBaseline: true })
    expect(paths[0]).toMatch(/opencode-windows-x64-baseline[\\/]bin[\\/]opencode\.exe$/)
    expect(candidatePaths({ appRoot: '/a', platform: 'darwin', arch: 'arm64' })).toEqual(['/a/node_modules/opencode-darwin-arm64/bin/opencode'])
  })
  it('says where it looked when the binary is missing', () => {
    expect(() => resolveOpencodeBinary({ appRoot: '/nowhere', platform: 'linux', arch: 'x64' }, () => false)).toThrow(
      /not found[\s\S]*\/nowhere\/node_modules\/opencode-linux-x64\/bin\/opencode/,
    )
  })
  it('development: finds the binary installed by the opencode-ai dependency', () => {
    expect(resolveOpencodeBinary({ appRoot: process.cwd() })).toMatch(/node_modules\/opencode-/)
  })
})

describe('proxy header and path rules', () => {
  it('never forwards the renderer’s cookies or auth, and always adds the server’s', () => {
    const h = upstreamHeaders(
      { cookie: 'retake_session=x', authorization: 'Basic evil', 'content-type': 'application/json', 'x-opencode-directory': '/p', origin: 'http://x' },
      'Basic real',
    )
    expect(h).toEqual({ 'content-type': 'application/json', 'x-opencode-directory': '/p', authorization: 'Basic real' })
  })
  it('drops www-authenticate so no browser login prompt can appear', () => {
    expect(downstreamHeaders({ 'www-authenticate': 'Basic realm="Secure Area"', 'content-type': 'application/json', 'set-cookie': ['a=b'] })).toEqual({
      'content-type': 'application/json',
      'x-content-type-options': 'nosniff',
    })
  })
  it('serves anything that is not JSON or an event stream as a sandboxed download, never as a page', () => {
    for (const type of ['text/html; charset=utf-8', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'text/plain', undefined]) {
      expect(downstreamHeaders(type ? { 'content-type': type } : {})).toEqual({
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment',
        'content-security-policy': "sandbox; default-src 'none'",
        'x-content-type-options': 'nosniff',
      })
    }
    expect(downstreamHeaders({ 'content-type': 'text/event-stream' })).toEqual({ 'content-type': 'text/event-stream', 'x-content-type-options': 'nosniff' })
    expect(downstreamHeaders({ 'content-type': 'application/json;charset=utf-8' })['content-disposition']).toBeUndefined()
    expect(downstreamHeaders({ 'content-type': 'application/jsonx' })['content-disposition']).toBe('attachment')
  })
  it('forwards only the API routes the renderer uses', () => {
    expect(isAllowedOpencodeRoute('GET', '/session?directory=%2Fp')).toBe(true)
    expect(isAllowedOpencodeRoute('POST', '/session/ses_1/prompt_async')).toBe(true)
    expect(isAllowedOpencodeRoute('DELETE', '/session/ses_1/message/msg_1/part/prt_1')).toBe(true)
    expect(isAllowedOpencodeRoute('PUT', '/auth/openai')).toBe(true)
    // Rewriting a conversation or moving a session is the host's own business (continue-attempt.ts,
    // fork-session.ts, over server/host-client.ts), never the window's.
    for (const [m, p] of [
      ['POST', '/sync/replay'],
      ['POST', '/sync/history'],
      ['DELETE', '/session/ses_1/message/msg_1'],
      ['POST', '/experimental/control-plane/move-session'],
    ]) {
      expect(isAllowedOpencodeRoute(m!, p!)).toBe(false)
    }
    expect(isAllowedOpencodeRoute('POST', '/provider/github-copilot/oauth/authorize')).toBe(true)
    expect(isAllowedOpencodeRoute('POST', '/provider/openai/oauth/callback')).toBe(true)
    // opencode's commands (a template the server turns into a prompt: a turn like any other, checkpointed).
    expect(isAllowedOpencodeRoute('GET', '/command')).toBe(true)
    expect(isAllowedOpencodeRoute('POST', '/session/ses_1/command')).toBe(true)
    expect(isAllowedOpencodeRoute('GET', '/find/file?query=app')).toBe(true)
    // opencode's web app, files, shells and anything unknown stay out of reach.
    for (const [m, p] of [
      ['GET', '/'],
      ['GET', '/index.html'],
      ['GET', '/file/content?path=evil.html'],
      ['GET', '/file?path=.'],
      ['POST', '/session/ses_1/shell'],
      ['GET', '/session/../config'],
      ['GET', '/session/ses_1/message/..'],
      ['DELETE', '/session'],
      ['GET', '/global/config'],
      ['POST', '/global/dispose'],
      ['TRACE', '/session'],
      ['GET', '/provider/openai/oauth/callback'],
      ['POST', '/provider/../oauth/authorize'],
    ] as const) {
      expect(isAllowedOpencodeRoute(m, p), `${m} ${p}`).toBe(false)
    }
  })
  it('stays on the server’s origin', () => {
    expect(upstreamUrl('http://127.0.0.1:4096', '/session?directory=/p')?.href).toBe('http://127.0.0.1:4096/session?directory=/p')
    expect(upstreamUrl('http://127.0.0.1:4096', '//evil.example/x')).toBeNull()
    expect(upstreamUrl('http://127.0.0.1:4096', 'http://evil.example/x')).toBeNull()
    expect(upstreamUrl('http://127.0.0.1:4096', '/\\evil.example')).toBeNull()
  })
})
