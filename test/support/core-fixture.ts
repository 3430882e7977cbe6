/**
 * The whole main process without Electron, as the app runs it: RetakeCore (embedded opencode,
 * checkpointing proxy, stores, router) behind browser mode's host. Tests talk to opencode through
 * the proxy (as the renderer does) and to the host through its router.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { createOpencodeClient, type OpencodeClient } from '@opencode-ai/sdk/v2/client'
import { hostFetch, logIn } from './host-fetch'
import type { ChannelInput, ChannelName, ChannelOutput, Settings } from '../../shared/ipc-contract'
import { createRetakeCore, type CoreOptions, type RetakeCore } from '../../core/retake-core'
import { startWebHost, type WebHost } from '../../web/host'
import { AppStores } from '../../core/store/app-stores'
import { startFakeLlm, type FakeLlm } from './fake-llm'
import { isolatedOpencodeEnv, makeOpencodeConfig } from './opencode-config'
import { initGitRepo } from './opencode-fixture'

export interface CoreApp {
  fake: FakeLlm
  root: string
  project: string
  dataDir: string
  core: RetakeCore
  host: WebHost
  /** An SDK client that goes through Retake's proxy, like the renderer's. */
  client: OpencodeClient
  /** The session cookie the printed URL's token bought (send it with `hostFetch`). */
  cookie: string
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>
  stop(): Promise<void>
}

/**
 * A core with no model provider (opencode stays offline), for tests of the host itself: opencode's
 * config in `root`, its own HOME/XDG dirs there, `project` opened first.
 */
export function offlineCore(root: string, project: string): RetakeCore {
  const configPath = join(root, 'opencode.json')
  writeFileSync(configPath, JSON.stringify({ autoupdate: false, share: 'disabled' }))
  return createRetakeCore({
    mode: 'browser',
    dataDir: join(root, 'data'),
    appRoot: process.cwd(),
    version: '0.0.0-test',
    opencodeVersion: '1.18.33',
    opencodeConfigPath: configPath,
    initialProject: project,
    serverEnv: isolatedOpencodeEnv(join(root, 'server-home')),
  })
}

export async function startCoreApp(
  opts: { git?: boolean; files?: Record<string, string>; settings?: Partial<Settings>; root?: string; core?: Pick<CoreOptions, 'afterRetakePhase' | 'afterSwitchDelete'> } = {},
): Promise<CoreApp> {
  const fake = await startFakeLlm()
  const root = opts.root ?? mkdtempSync(join(tmpdir(), 'retake-core-'))
  const project = join(root, 'project')
  const dataDir = join(root, 'data')
  mkdirSync(project, { recursive: true })
  for (const [name, content] of Object.entries(opts.files ?? {})) {
    mkdirSync(join(project, name, '..'), { recursive: true })
    writeFileSync(join(project, name), content)
  }
  if (opts.git) initGitRepo(project)
  if (opts.settings) new AppStores(dataDir).updateSettings(opts.settings)
  const configPath = join(root, 'opencode.json')
  writeFileSync(configPath, JSON.stringify(makeOpencodeConfig({ fakeBaseUrl: fake.baseUrl, anthropicBaseUrl: fake.anthropicBaseUrl })))
  // Its own HOME/XDG dirs: by default the embedded server uses the user's own opencode setup.
  const serverEnv = isolatedOpencodeEnv(join(root, 'server-home'))
  const core = createRetakeCore({
    mode: 'browser',
    dataDir,
    appRoot: process.cwd(),
    version: '0.0.0-test',
    opencodeVersion: '1.18.33',
    opencodeConfigPath: configPath,
    initialProject: project,
    serverEnv,
    ...opts.core,
  })
  const staticDir = join(root, 'static')
  mkdirSync(staticDir, { recursive: true })
  const host = await startWebHost({ core, staticDir, token: 'test-token' })
  await core.start()
  const cookie = await logIn(host.url)
  const client = createOpencodeClient({ baseUrl: `${host.origin}/opencode`, directory: project, headers: { cookie }, fetch: hostFetch })
  return {
    fake,
    root,
    project,
    dataDir,
    core,
    host,
    client,
    cookie,
    async call(channel, input) {
      const env = await core.dispatch(channel, input, {})
      if (!env.ok) throw new Error(`${channel}: ${env.error.code}: ${env.error.message}`)
      return env.data as never
    },
    async stop() {
      await host.close()
      await core.stop()
      await fake.close()
      if (!opts.root) rmSync(root, { recursive: true, force: true })
    },
  }
}

/** path → sha256 of every file under dir (.git excluded): "byte-identical" made checkable. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '.git') continue
      const p = join(d, name)
      if (statSync(p).isDirectory()) walk(p)
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex')
    }
  }
  walk(dir)
  return out
}

/** The turn is sealed when the session goes idle (seen on the host's own event stream). */
export async function waitSealed(app: CoreApp, sessionID: string, messageID: string): Promise<void> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const turns = await app.call('checkpoints.list', { directory: app.project, sessionID })
    if (turns.find((t) => t.messageID === messageID)?.status === 'sealed') return
    if (Date.now() > deadline) throw new Error(`turn ${messageID} never sealed: ${JSON.stringify(turns)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
