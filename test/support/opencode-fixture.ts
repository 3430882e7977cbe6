/**
 * A real opencode server for one integration test file: the pinned binary run by Retake's own
 * server manager, an isolated HOME/data dir, a fresh project folder (git or not), and a config that
 * points at the fake LLM. Only the LLM is fake.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOpencodeClient, type OpencodeClient } from '@opencode-ai/sdk/v2/client'
import { EmbeddedOpencodeServer } from '../../core/server/opencode-server'
import { resolveOpencodeBinary } from '../../core/server/opencode-binary'
import { AppStores } from '../../core/store/app-stores'
import { startFakeLlm, type FakeLlm } from './fake-llm'
import { makeOpencodeConfig, offlineOpencodeEnv } from './opencode-config'

export interface TestServer {
  fake: FakeLlm
  root: string
  project: string
  dataDir: string
  server: EmbeddedOpencodeServer
  /** Retake's own stores (saved retakes, attempts) in the same data dir. */
  stores: AppStores
  client(): OpencodeClient
  /** Stops the manager and starts a new one on the same data dir (the server's database survives). */
  restartManager(): Promise<void>
  stop(): Promise<void>
}

export function initGitRepo(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' })
  git('init', '-q')
  git('add', '-A')
  git('commit', '-q', '--allow-empty', '-m', 'init')
}

export async function startTestServer(opts: { git?: boolean; files?: Record<string, string> } = {}): Promise<TestServer> {
  const fake = await startFakeLlm()
  const root = mkdtempSync(join(tmpdir(), 'retake-it-'))
  const project = join(root, 'project')
  const dataDir = join(root, 'data')
  mkdirSync(project, { recursive: true })
  for (const [name, content] of Object.entries(opts.files ?? {})) writeFileSync(join(project, name), content)
  if (opts.git) initGitRepo(project)
  const configPath = join(root, 'opencode.json')
  writeFileSync(configPath, JSON.stringify(makeOpencodeConfig({ fakeBaseUrl: fake.baseUrl, anthropicBaseUrl: fake.anthropicBaseUrl })))
  // The manager sets HOME/XDG itself (under the data dir).
  const extraEnv = offlineOpencodeEnv()
  const make = () => new EmbeddedOpencodeServer({ binary: resolveOpencodeBinary({ appRoot: process.cwd() }), dataDir, configPath, cwd: project, extraEnv, version: '1.18.33' })

  const t: TestServer = {
    fake,
    root,
    project,
    dataDir,
    server: make(),
    stores: new AppStores(dataDir),
    client() {
      return createOpencodeClient({ baseUrl: t.server.url!, directory: project, headers: { authorization: t.server.authorization() } })
    },
    async restartManager() {
      await t.server.stop()
      t.server = make()
      await t.server.start()
    },
    async stop() {
      await t.server.stop()
      await fake.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
  await t.server.start()
  return t
}
