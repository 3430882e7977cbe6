/**
 * The embedded server uses the user's own opencode setup by default (their config with its
 * providers, as `opencode` itself would), and a separate one when Settings says so — against the
 * real opencode binary, with a stand-in user home.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRetakeCore, type RetakeCore } from '../../core/retake-core'
import { AppStores } from '../../core/store/app-stores'
import { isolatedOpencodeEnv } from '../support/opencode-config'

const cores: RetakeCore[] = []
const roots: string[] = []
afterEach(async () => {
  for (const c of cores.splice(0)) await c.stop()
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true })
})

/** A user home whose opencode config defines a provider of the user's own. */
function userHome(): { root: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'retake-user-'))
  roots.push(root)
  const env = isolatedOpencodeEnv(join(root, 'user'))
  mkdirSync(join(env.XDG_CONFIG_HOME!, 'opencode'), { recursive: true })
  writeFileSync(
    join(env.XDG_CONFIG_HOME!, 'opencode', 'opencode.json'),
    JSON.stringify({
      enabled_providers: ['mine'],
      provider: {
        mine: { name: 'My own provider', npm: '@ai-sdk/openai-compatible', options: { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' }, models: { m1: { name: 'Mine 1' } } },
      },
    }),
  )
  return { root, env }
}

async function providersSeen(settings: { useUserOpencodeHome?: boolean }): Promise<string[]> {
  const { root, env } = userHome()
  const dataDir = join(root, 'data')
  if (settings.useUserOpencodeHome !== undefined) new AppStores(dataDir).updateSettings(settings)
  // The server inherits the host's environment: the stand-in home plays the user's, as the host
  // process's own HOME/XDG dirs while it starts.
  const { HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, XDG_STATE_HOME, ...offline } = env
  const saved = { ...process.env }
  Object.assign(process.env, { HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, XDG_STATE_HOME })
  const core = createRetakeCore({ mode: 'browser', dataDir, appRoot: process.cwd(), version: 't', opencodeVersion: '1.18.33', serverEnv: offline, initialProject: root })
  cores.push(core)
  try {
    await core.start()
  } finally {
    for (const k of ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME']) {
      if (saved[k] === undefined) delete process.env[k]
      else process.env[k] = saved[k]
    }
  }
  const res = await core.proxy({ method: 'GET', path: `/config/providers?directory=${encodeURIComponent(root)}`, headers: {}, body: null })
  const chunks: Buffer[] = []
  for await (const c of res.body!) chunks.push(Buffer.from(c as Buffer))
  const data = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { providers: { id: string }[] }
  return data.providers.map((p) => p.id)
}

describe('whose opencode setup the embedded server uses', () => {
  it('the user’s own by default', async () => {
    expect(await providersSeen({})).toContain('mine')
  })

  it('a separate one when Settings turns it off', async () => {
    expect(await providersSeen({ useUserOpencodeHome: false })).not.toContain('mine')
  })
})
