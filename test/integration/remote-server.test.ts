/**
 * `--remote URL` + RETAKE_REMOTE_PASSWORD: Retake uses an opencode server the user already runs (here
 * one started for the test), health-checks it, proxies to it with its credentials, and says clearly
 * when the password is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRetakeCore } from '../../core/retake-core'
import { EmbeddedOpencodeServer } from '../../core/server/opencode-server'
import { resolveOpencodeBinary } from '../../core/server/opencode-binary'
import { offlineOpencodeEnv } from '../support/opencode-config'

const root = mkdtempSync(join(tmpdir(), 'retake-remote-'))
let users: EmbeddedOpencodeServer
let password = ''

beforeAll(async () => {
  users = new EmbeddedOpencodeServer({ binary: resolveOpencodeBinary({ appRoot: process.cwd() }), dataDir: join(root, 'their-server'), extraEnv: offlineOpencodeEnv() })
  await users.start()
  password = Buffer.from(users.authorization().slice('Basic '.length), 'base64').toString().split(':')[1]
})
afterAll(async () => {
  await users?.stop()
  rmSync(root, { recursive: true, force: true })
})

describe('remote opencode server', () => {
  it('is health-checked and reached through the proxy with its password', async () => {
    const project = join(root, 'project')
    mkdirSync(project, { recursive: true })
    const core = createRetakeCore({
      mode: 'browser',
      dataDir: join(root, 'data-ok'),
      appRoot: process.cwd(),
      version: 't',
      remote: { url: users.url!, password },
      initialProject: project,
    })
    try {
      await core.start()
      expect(core.connection.status).toMatchObject({ state: 'ready', kind: 'remote', version: '1.18.33' })
      const res = await core.proxy({ method: 'POST', path: `/session?directory=${encodeURIComponent(project)}`, headers: { 'content-type': 'application/json' }, body: null })
      expect(res.status).toBe(200)
    } finally {
      await core.stop()
    }
    // Retake does not own a remote server: stopping Retake leaves it running.
    expect(users.status.state).toBe('ready')
  })

  it('a wrong password gives a clear failed status, not a hang', async () => {
    const core = createRetakeCore({
      mode: 'browser',
      dataDir: join(root, 'data-bad'),
      appRoot: process.cwd(),
      version: 't',
      remote: { url: users.url!, password: 'wrong' },
      initialProject: root,
    })
    await expect(core.start()).rejects.toThrow(/refused the credentials/)
    expect(core.connection.status).toMatchObject({ state: 'failed', kind: 'remote', error: expect.stringContaining('refused the credentials (401)') })
    const res = await core.proxy({ method: 'GET', path: `/session?directory=${encodeURIComponent(root)}`, headers: {}, body: null })
    expect(res.status).toBe(503)
    await core.stop()
  })
})
