/**
 * Everything the main process does, without Electron: the opencode connection (embedded or remote),
 * the proxy to it, the stores, and the IPC router. electron/main.ts and browser mode's host both
 * wrap this one object, so the desktop app and browser mode behave the same.
 */
import { EventEmitter } from 'node:events'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import type { EventName, EventPayload, ServerSetup, ServerStatus, Settings } from '../shared/ipc-contract'
import { events as eventSchemas } from '../shared/ipc-contract'
import { createRouter, RouteError, type Dispatch, type Handlers } from './ipc/router'
import { AppStores } from './store/app-stores'
import { listFolders } from './store/folders'
import { RemoteSecretStore } from './store/remote-secret'
import { loadOrCreateInstallKey } from './store/install-key'
import { setBlockKey } from '../shared/attachments/inlined-attachment'
import type { OpencodeConnection } from './server/connection'
import { sessionBusy, sessionMessages } from './server/host-client'
import { toolUseByTurn, type StoredMessage } from './turns/turn-tools'
import type { TurnToolUse } from './checkpoints/index'
import { EmbeddedOpencodeServer } from './server/opencode-server'
import { RemoteOpencodeServer } from './server/remote-server'
import { checkOpencodeVersion, resolveOpencodeBinary } from './server/opencode-binary'
import type { ProxyRequest, ProxyResponse } from './server/opencode-proxy'
import { CheckpointService } from './checkpoint-service'
import { createCheckpointingProxy } from './turns/checkpointing-proxy'
import { createTurnCheckpoints } from './turns/turn-checkpoints'
import { checkpointHandlers } from './ipc/checkpoint-handlers'
import { createRetakeHost } from './retake/retake-host'
import type { RetakePhase } from './retake/retake-journal'
import { checkWindowFolders } from './security/window-folders'

export interface CoreOptions {
  mode: 'desktop' | 'browser'
  dataDir: string
  /** Where node_modules is (development) — the binary resolver looks there. */
  appRoot: string
  /** process.resourcesPath of a packaged app. */
  resourcesPath?: string
  version: string
  /** The opencode version Retake is pinned to; the binary must answer it. */
  opencodeVersion?: string
  /** Command-line choices override the saved settings for this run. */
  opencodeConfigPath?: string | null
  remote?: { url: string; password?: string }
  initialProject?: string
  /** Browser mode: the command that started this run (the tab shows it once the run has ended). */
  startCommand?: string
  pickFolder?: () => Promise<string | null>
  openExternal?: (url: string) => Promise<boolean>
  /** Extra environment for the embedded server (tests keep it offline with this). */
  serverEnv?: Record<string, string>
  log?: (line: string) => void
  /** Test seam: called after each journaled phase of a retake (the crash tests kill the process there). */
  afterRetakePhase?: (phase: RetakePhase) => void
  /** Test seam: called (and awaited) after each message a switch to an attempt deletes. */
  afterSwitchDelete?: (messageID: string) => void | Promise<void>
}

export interface RetakeCore {
  readonly connection: OpencodeConnection
  readonly checkpoints: CheckpointService
  dispatch: Dispatch<unknown>
  /** A request the window sent (browser host, `app://`): only folders opened this run may be named. */
  proxy(req: ProxyRequest): Promise<ProxyResponse>
  onEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
  /** Every event of the contract (server status, capture progress …), for the shells to forward. */
  onAnyEvent(listener: (event: EventName, payload: unknown) => void): () => void
  start(): Promise<void>
  stop(): Promise<void>
}

/** opencode's error shape, so the renderer shows the message as it shows opencode's own. */
function forbidden(message: string): ProxyResponse {
  const body = Buffer.from(JSON.stringify({ name: 'Forbidden', data: { message } }))
  return { status: 403, headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' }, body: Readable.from([body]) }
}

export function createRetakeCore(opts: CoreOptions, isTrustedSender: (sender: unknown) => boolean = () => true): RetakeCore {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 })
  const stores = new AppStores(opts.dataDir)
  const events = new EventEmitter()
  const secrets = new RemoteSecretStore(join(opts.dataDir, 'secrets.json'))
  const log = opts.log ?? (() => {})
  const attachmentKey = loadOrCreateInstallKey(join(opts.dataDir, 'attachment-key'))
  // The host rebuilds retake payloads (retake-host.ts): attachments it inlines must carry this
  // install's tag, or the window would show them as typed text. (One core per process.)
  setBlockKey(attachmentKey)
  try {
    secrets.migrate(stores.getSettings().remoteUrl)
  } catch (err) {
    // Not fatal: an unbound password is simply never sent (passwordFor needs a matching origin).
    log(`[settings] could not bind the saved remote password to its URL: ${(err as Error).message}`)
  }
  let connection: OpencodeConnection = makeConnection(stores.getSettings())
  const checkpoints = new CheckpointService({
    dataDir: opts.dataDir,
    settings: () => stores.getSettings(),
    onProgress: (p) => events.emit('checkpoint.progress', p),
    onSealed: (p) => events.emit('checkpoint.sealed', p),
    sessionBusy: (directory, sessionID) => sessionBusy(connection, directory, sessionID),
    projects: () => stores.recentProjects().map((p) => p.path),
    pinnedRestores: () => stores.attemptRestoreIds(),
    toolUse: async (directory, turns) => {
      const bySession = new Map<string, Map<string, TurnToolUse>>()
      for (const sessionID of new Set(turns.map((t) => t.sessionID))) {
        const messages = await sessionMessages(connection, directory, sessionID)
        if (messages) bySession.set(sessionID, toolUseByTurn(messages as StoredMessage[], directory))
      }
      return (turn) => bySession.get(turn.sessionID)?.get(turn.messageID)
    },
    log,
  })
  const turns = createTurnCheckpoints(() => connection, checkpoints, log)
  const proxy = createCheckpointingProxy(() => connection, turns)
  // The folders the window may name to opencode (security/window-folders.ts): opened this run.
  const openedFolders = new Set<string>(opts.initialProject ? [opts.initialProject] : [])
  const opened = <T extends { path: string }>(project: T): T => {
    openedFolders.add(project.path)
    return project
  }
  const retakes = createRetakeHost({
    journalDir: join(opts.dataDir, 'retakes'),
    conn: () => connection,
    turns,
    checkpoints,
    stores,
    emit: (p) => events.emit('retake.progress', p),
    log,
    afterPhase: opts.afterRetakePhase,
    afterSwitchDelete: opts.afterSwitchDelete,
  })

  function makeConnection(settings: Settings): OpencodeConnection {
    const remoteUrl = opts.remote?.url ?? settings.remoteUrl
    let conn: OpencodeConnection
    if (remoteUrl) {
      // The saved password goes only to the origin it was typed for (a --remote URL included).
      const password = opts.remote?.password ?? secrets.passwordFor(remoteUrl)
      conn = new RemoteOpencodeServer({ url: remoteUrl, password })
    } else {
      let binary: string
      try {
        binary = resolveOpencodeBinary({ appRoot: opts.appRoot, resourcesPath: opts.resourcesPath })
      } catch (err) {
        binary = ''
        log(`[server] ${(err as Error).message}`)
      }
      conn = new EmbeddedOpencodeServer({
        binary,
        dataDir: opts.dataDir,
        configPath: opts.opencodeConfigPath ?? settings.opencodeConfigPath,
        useUserHome: settings.useUserOpencodeHome,
        extraEnv: opts.serverEnv,
        version: opts.opencodeVersion,
      })
    }
    conn.on('status', (s: ServerStatus) => events.emit('server.status', s))
    return conn
  }

  function withSecretState(settings: Settings) {
    return { ...settings, remotePasswordSaved: secrets.hasPasswordFor(settings.remoteUrl), serverSetup: serverSetup(settings) }
  }

  /** The same choices makeConnection makes, said to the Settings dialog (the command line wins). */
  function serverSetup(settings: Settings): ServerSetup {
    const remoteUrl = opts.remote?.url ?? settings.remoteUrl
    const configPath = opts.opencodeConfigPath ?? settings.opencodeConfigPath
    return {
      kind: remoteUrl ? 'remote' : 'embedded',
      remoteUrl: remoteUrl ?? null,
      remoteFrom: opts.remote?.url ? 'command line' : remoteUrl ? 'settings' : null,
      configPath: configPath ?? null,
      configFrom: opts.opencodeConfigPath ? 'command line' : configPath ? 'settings' : null,
      home: settings.useUserOpencodeHome ? 'user' : 'separate',
    }
  }

  async function startConnection() {
    const conn = connection
    if (conn instanceof EmbeddedOpencodeServer) {
      try {
        const binary = resolveOpencodeBinary({ appRoot: opts.appRoot, resourcesPath: opts.resourcesPath })
        await checkOpencodeVersion(binary, opts.opencodeVersion)
      } catch (err) {
        // Shown on the error screen: a missing or wrong binary is not something a restart fixes.
        conn.markFailed((err as Error).message)
        throw err
      }
    }
    await conn.start()
    // A retake cut off by the last run's death is finished or undone before anything else runs.
    for (const line of await retakes.recover()) log(`[retake] recovered ${line}`)
  }

  async function reconnect() {
    await connection.stop().catch(() => {})
    connection.removeAllListeners('status')
    connection = makeConnection(stores.getSettings())
    await startConnection().catch((err) => log(`[server] reconnect failed: ${(err as Error).message}`))
  }

  const handlers: Handlers = {
    'app.info': () => ({
      mode: opts.mode,
      version: opts.version,
      initialProject: opts.initialProject,
      canPickFolder: Boolean(opts.pickFolder),
      attachmentKey,
      ...(opts.startCommand ? { startCommand: opts.startCommand } : {}),
    }),
    'server.status': () => connection.status,
    'server.restart': async () => {
      await connection.restart().catch(() => {})
      return connection.status
    },
    'projects.recent': () => stores.recentProjects(),
    'projects.open': ({ path }) => opened(stores.openProject(path)),
    'projects.forget': ({ path }) => stores.forgetProject(path),
    'projects.browse': ({ path }) => {
      try {
        return listFolders(path)
      } catch (err) {
        throw new RouteError('bad-input', (err as Error).message)
      }
    },
    'projects.pick': async () => {
      if (!opts.pickFolder) throw new RouteError('unavailable', 'This host has no folder picker; type the folder path instead')
      const path = await opts.pickFolder()
      return path ? opened(stores.openProject(path)) : null
    },
    'settings.get': () => withSecretState(stores.getSettings()),
    'settings.update': async ({ remotePassword, ...patch }) => {
      const before = stores.getSettings()
      const after = stores.updateSettings(patch)
      // Typed → bound to the new URL; not typed and another server → the old one is dropped.
      secrets.update({ url: after.remoteUrl, typedPassword: remotePassword })
      const serverChanged =
        before.remoteUrl !== after.remoteUrl ||
        before.opencodeConfigPath !== after.opencodeConfigPath ||
        before.useUserOpencodeHome !== after.useUserOpencodeHome ||
        remotePassword !== undefined
      if (serverChanged) void reconnect()
      if (JSON.stringify(before.extraFolders) !== JSON.stringify(after.extraFolders) || JSON.stringify(before.excludes) !== JSON.stringify(after.excludes)) {
        await checkpoints.reset()
      }
      return withSecretState(after)
    },
    'savedRetakes.save': (entry) => {
      stores.saveRetake(entry)
      return true as const
    },
    'savedRetakes.list': ({ sessionID }) => stores.savedRetakes(sessionID),
    'savedRetakes.drop': ({ sessionID, messageID }) => {
      stores.dropRetake(sessionID, messageID)
      return true as const
    },
    'attempts.list': ({ sessionID }) => stores.attempts(sessionID),
    'shell.openExternal': async ({ url }) => (opts.openExternal ? opts.openExternal(url) : false),
    ...checkpointHandlers(checkpoints),
    'retake.run': (input) => retakes.run(input),
    'attempts.continue': (input) => retakes.continueAttempt(input),
    'retake.compare': (input) => retakes.compare(input),
    'sessions.fork': async (input) => {
      const out = await retakes.fork(input)
      // A fork in a folder of its own is a project of its own: listed with the recent ones.
      if (out.status === 'done' && out.directory !== input.directory) opened(stores.openProject(out.directory))
      return out
    },
    'sessions.import': async ({ directory, data }) => {
      try {
        return await retakes.importExport(directory, data)
      } catch (err) {
        throw new RouteError('unavailable', `The session could not be imported: ${(err as Error).message}`)
      }
    },
    'sessions.forget': async ({ directory, sessionID }) => {
      stores.forgetSession(sessionID)
      await (await checkpoints.store(directory)).deleteSession(sessionID)
      return true as const
    },
  }

  return {
    get connection() {
      return connection
    },
    dispatch: createRouter(handlers, { isTrustedSender, log }),
    proxy: async (req) => {
      const checked = checkWindowFolders(req, openedFolders)
      return checked.ok ? proxy.proxy(checked.req) : forbidden(checked.message)
    },
    onEvent(event, listener) {
      events.on(event, listener as (p: unknown) => void)
      return () => events.off(event, listener as (p: unknown) => void)
    },
    onAnyEvent(listener) {
      const offs = (Object.keys(eventSchemas) as EventName[]).map((name) => {
        const l = (p: unknown) => listener(name, p)
        events.on(name, l)
        return () => events.off(name, l)
      })
      return () => offs.forEach((off) => off())
    },
    checkpoints,
    start: startConnection,
    stop: async () => {
      turns.stop()
      await checkpoints.close()
      await connection.stop()
    },
  }
}
