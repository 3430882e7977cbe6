/**
 * The one typed contract between the renderer and the process that hosts it (Electron main, or the
 * browser-mode host). Each channel names a zod input and output; both sides import this file, so a
 * channel cannot drift. It imports neither Node nor Electron nor the DOM.
 */
import { z } from 'zod'

export const ServerStatusSchema = z.object({
  state: z.enum(['starting', 'ready', 'restarting', 'failed', 'stopped']),
  /** embedded = a server Retake spawned; remote = a server the user pointed Retake at. */
  kind: z.enum(['embedded', 'remote']),
  version: z.string().optional(),
  /** Human-readable reason when state is failed or restarting. */
  error: z.string().optional(),
  /** Restart attempt counter while restarting after a crash. */
  attempt: z.number().int().optional(),
  /** When the next restart happens (epoch ms), while restarting. */
  nextRetryAt: z.number().optional(),
})
export type ServerStatus = z.infer<typeof ServerStatusSchema>

export const AppInfoSchema = z.object({
  mode: z.enum(['desktop', 'browser']),
  version: z.string(),
  /** The folder the app was started with (--project), if any. */
  initialProject: z.string().optional(),
  /** True when the host can show a native folder picker (desktop). */
  canPickFolder: z.boolean(),
  /** This install's key (64 hex) for tagging inlined attachment blocks: only tagged ones show as chips. */
  attachmentKey: z.string().regex(/^[0-9a-f]{64}$/),
  /** Browser mode: the command that started this run, shown when the tab outlives it. */
  startCommand: z.string().optional(),
})

export const RecentProjectSchema = z.object({ path: z.string(), name: z.string(), openedAt: z.number() })
export type RecentProject = z.infer<typeof RecentProjectSchema>

export const SettingsSchema = z.object({
  /** Use an existing opencode server instead of the embedded one. Password is never returned. */
  remoteUrl: z.string().url().nullable(),
  /** Path of an opencode config JSON passed to the embedded server. */
  opencodeConfigPath: z.string().nullable(),
  /** Run the embedded server with the user's own HOME (their usual opencode config and auth). */
  useUserOpencodeHome: z.boolean(),
  /** Extra folders checkpointed with every turn, and folders never rolled back. */
  extraFolders: z.array(z.object({ path: z.string(), shared: z.boolean() })),
  excludes: z.array(z.string()),
})
export type Settings = z.infer<typeof SettingsSchema>
export const SettingsUpdateSchema = SettingsSchema.partial().extend({
  /** Only ever written, never read back. Saved bound to remoteUrl's origin. */
  remotePassword: z.string().optional(),
})
/** Settings as the host shows them: the stored ones, plus whether a password is saved for remoteUrl. */
/**
 * What the opencode connection runs with now, which is not always what the settings say: a
 * command-line `--opencode-config` or `--remote` wins over them, and a remote server ignores the
 * config file and home settings (it has its own).
 */
export const ServerSetupSchema = z.object({
  kind: z.enum(['embedded', 'remote']),
  /** The remote server's URL (never its password). */
  remoteUrl: z.string().nullable(),
  remoteFrom: z.enum(['settings', 'command line']).nullable(),
  /** The config file passed to the embedded server (OPENCODE_CONFIG), and where that choice came from. */
  configPath: z.string().nullable(),
  configFrom: z.enum(['settings', 'command line']).nullable(),
  /** user: the user's own HOME (their ~/.config/opencode, keys, sessions); separate: Retake's data dir. */
  home: z.enum(['user', 'separate']),
})
export type ServerSetup = z.infer<typeof ServerSetupSchema>

export const SettingsViewSchema = SettingsSchema.extend({
  /** True when a password is saved for the current remoteUrl's origin (it is never sent back itself). */
  remotePasswordSaved: z.boolean().optional(),
  /** What the connection runs with (set by the host; absent from old hosts and test fakes). */
  serverSetup: ServerSetupSchema.optional(),
})
export type SettingsView = z.infer<typeof SettingsViewSchema>

/** A prompt part as sent to opencode (TextPartInput | FilePartInput | AgentPartInput). */
export const PartInputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('file'),
    mime: z.string().min(1),
    filename: z.string().optional(),
    url: z.string().min(1),
    source: z.unknown().optional(),
  }),
  z.object({ type: z.literal('agent'), name: z.string().min(1), source: z.unknown().optional() }),
])
export type PartInput = z.infer<typeof PartInputSchema>

export const ModelRefSchema = z.object({ providerID: z.string().min(1), modelID: z.string().min(1) })
export type ModelRef = z.infer<typeof ModelRefSchema>

const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[A-Za-z0-9_]+$`), `expected a ${prefix}… id`)
export const SessionIdSchema = id('ses')
export const MessageIdSchema = id('msg')

/** A saved retake: the retry payload, kept before anything destructive runs so no failure can lose it. */
export const SavedRetakeSchema = z.object({
  sessionID: SessionIdSchema,
  messageID: MessageIdSchema,
  directory: z.string(),
  parts: z.array(PartInputSchema),
  agent: z.string().optional(),
  variant: z.string().optional(),
  model: ModelRefSchema,
  savedAt: z.number(),
  /** pending = the retake is running; failed = it stopped part-way (error says where). */
  state: z.enum(['pending', 'failed']),
  error: z.string().optional(),
  /** Set when the host refused the prompt because it could not record a checkpoint first. */
  noCheckpoint: z.boolean().optional(),
})
export type SavedRetake = z.infer<typeof SavedRetakeSchema>

/** One earlier answer to a retaken turn, kept locally (the server's history is not forked). */
export const AttemptSchema = z.object({
  sessionID: SessionIdSchema,
  messageID: MessageIdSchema,
  model: ModelRefSchema.optional(),
  at: z.number(),
  /**
   * Everything after the retaken turn's question in that attempt, as the server returned it
   * ({info, parts}[]): its answers, and the later turns with theirs (a whole branch).
   */
  messages: z.array(z.unknown()),
  /** The retaken user message as it was asked in that attempt (an edit changes it). */
  user: z.unknown().optional(),
  /**
   * The checkpoint restore that rolled this attempt's files back when it was replaced: its
   * before-image is the attempt's files, so "continue from this attempt" can bring them back.
   */
  restoreId: z.string().optional(),
  /**
   * A switch to this attempt was cut off after its files were done, while the conversation was
   * being rewritten: continuing from it again finishes the conversation and touches no file.
   */
  switching: z.boolean().optional(),
})
export type Attempt = z.infer<typeof AttemptSchema>

/**
 * opencode's session export (`{info, messages: [{info, parts}]}`), as far as an import needs to
 * read it: the ids and order it renumbers; everything else goes to opencode as it is, and opencode
 * checks it when it replays the messages.
 */
export const SessionExportSchema = z.object({
  info: z.object({ title: z.string().max(1000).optional() }).passthrough(),
  messages: z
    .array(
      z.object({
        info: z.object({ id: z.string().max(200), role: z.enum(['user', 'assistant']), parentID: z.string().max(200).optional() }).passthrough(),
        parts: z.array(z.object({ id: z.string().max(200), type: z.string().max(100) }).passthrough()).max(10_000),
      }),
    )
    .max(20_000),
})
export type SessionExport = z.infer<typeof SessionExportSchema>

const empty = z.object({}).strict()

const directory = z.string().min(1).max(4096)
const TurnKeySchema = z.object({ sessionID: SessionIdSchema, messageID: MessageIdSchema })

/** What one turn changed on disk, per file (from the checkpoint engine). */
export const ChangeItemSchema = z.object({
  root: z.string(),
  path: z.string(),
  change: z.enum(['added', 'modified', 'deleted', 'mode', 'type', 'not-checkpointed']),
  binary: z.boolean(),
  added: z.number(),
  removed: z.number(),
  /** Only from checkpoints.changes (the list leaves diffs out to stay small). */
  diff: z.string().optional(),
})
export type ChangeItem = z.infer<typeof ChangeItemSchema>

export const TurnCheckpointSchema = z.object({
  messageID: z.string(),
  status: z.enum(['open', 'sealed', 'restored']),
  createdAt: z.number(),
  sealedAt: z.number().optional(),
  changes: z.array(ChangeItemSchema),
})
export type TurnCheckpoint = z.infer<typeof TurnCheckpointSchema>

export const PlanActionSchema = z.object({
  id: z.string(),
  root: z.string(),
  path: z.string(),
  kind: z.enum(['restore', 'delete', 'recreate', 'nothing', 'conflict', 'not-checkpointed', 'not-this-turn']),
  reason: z.string().optional(),
  expectedHash: z.string().nullable().optional(),
  actualHash: z.string().nullable().optional(),
  diff: z.string().optional(),
  binary: z.boolean().optional(),
  /** Whether the file existed before the turn: rolling back a conflict without it deletes the file. */
  existedBefore: z.boolean().optional(),
})
export const RestorePlanSchema = z.object({
  planId: z.string(),
  turns: z.array(TurnKeySchema),
  actions: z.array(PlanActionSchema),
  warnings: z.array(z.string()),
  suggestion: z.object({ backTo: TurnKeySchema }).optional(),
})
export type RestorePlan = z.infer<typeof RestorePlanSchema>

export const ApplyResultSchema = z.object({
  restoreId: z.string().nullable(),
  status: z.enum(['done', 'partial', 'cancelled', 'noop']),
  applied: z.array(z.object({ path: z.string(), root: z.string(), kind: z.string() })),
  skipped: z.array(z.object({ path: z.string(), root: z.string(), reason: z.string() })),
  failed: z.array(z.object({ path: z.string(), root: z.string(), error: z.string() })),
  turnsMarkedRestored: z.boolean(),
  warnings: z.array(z.string()),
})
export type RestoreResult = z.infer<typeof ApplyResultSchema>

export const CheckpointStatsSchema = z.object({
  turns: z.number(),
  sessions: z.number(),
  snapshots: z.number(),
  blobs: z.number(),
  blobBytes: z.number(),
  storeBytes: z.number(),
  /** Restores kept because an attempt's files are their before-image (never cleaned up). */
  attemptRestores: z.number(),
})

const BlobProblemSchema = z.object({ root: z.string(), path: z.string() })
export const CheckpointVerifySchema = z.object({
  ok: z.boolean(),
  blobsChecked: z.number(),
  missing: z.array(BlobProblemSchema),
  damaged: z.array(BlobProblemSchema),
  brokenTurns: z.array(z.string()),
  unreachableBlobs: z.number(),
  unreachableBytes: z.number(),
  repaired: z.object({ blobsSwept: z.number(), bytesFreed: z.number(), damagedMovedAside: z.number() }).nullable(),
})

export const CheckpointProgressSchema = z.object({
  directory: z.string(),
  sessionID: z.string(),
  messageID: z.string(),
  /** done = the capture finished (the progress bar goes away). */
  phase: z.enum(['scan', 'hash', 'done']),
  filesDone: z.number(),
  filesTotal: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
})

export const RetakeStepSchema = z.enum(['payload', 'save', 'abort', 'locate', 'hold', 'revert', 'files', 'delete-parts', 'verify', 'prompt'])
export type RetakeStep = z.infer<typeof RetakeStepSchema>

/** The user's choices in the restore sheet: the plan (kept in the host), conflicts to overwrite, any files to keep as they are. */
export interface FileChoices {
  planId: string
  overwrite: string[]
  keep?: string[]
}

/** ↺ as one transaction on the host: the renderer says what to retake and with which choices. */
export const RetakeRunSchema = z.object({
  directory,
  sessionID: SessionIdSchema,
  /** The message the ↺ was pressed on (user, assistant, or the assistant of an error block). */
  clickedID: MessageIdSchema,
  model: ModelRefSchema,
  variant: z.string().optional(),
  /** "Send again": prompt the payload saved by an earlier retake of this message. */
  fromSaved: z.boolean().default(false),
  /** Roll the files back too: the plan (kept in the host) and the user's choices in the sheet. */
  files: z.object({ planId: z.string().min(1), overwrite: z.array(z.string()).default([]), keep: z.array(z.string()).default([]) }).optional(),
  /** Prompt even though no checkpoint can be recorded (the user chose so). */
  skipCheckpoint: z.boolean().default(false),
  /** "Edit and retake": the message's typed text replaced by this; attachments stay. */
  edit: z.object({ text: z.string().max(4_000_000) }).optional(),
  /**
   * /rewind: go back to before the turn (files as chosen, the conversation reverted) and stop there:
   * nothing is prompted; the turn's parts come back in the outcome for the composer.
   */
  rewind: z.boolean().default(false),
})

export const RetakeOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('done'),
    messageID: z.string(),
    /** Set when the new turn itself failed (it is shown in the timeline). */
    turnError: z.string().optional(),
    restore: ApplyResultSchema.nullable(),
    /** The `at` of the attempt this retake kept (the branch it replaced), if it had one. */
    keptAt: z.number().optional(),
    /** A rewind: the turn's parts (text and attachments), to edit in the composer; nothing was sent. */
    draft: z.array(PartInputSchema).optional(),
  }),
  z.object({
    status: z.literal('failed'),
    step: RetakeStepSchema,
    error: z.string(),
    /** True when the payload was saved first: the user can send it again (nothing is lost). */
    saved: z.boolean(),
  }),
])
export type RetakeOutcome = z.infer<typeof RetakeOutcomeSchema>

/** "Retake with several models": the same turn retaken on each in turn, each from the same files. */
export const RetakeCompareSchema = RetakeRunSchema.omit({ model: true, fromSaved: true, rewind: true }).extend({
  models: z.array(ModelRefSchema).min(2).max(3),
})
export const RetakeCompareOutcomeSchema = z.object({
  /** One per model that ran, in order; the runs stop at the first that failed to start. */
  runs: z.array(z.object({ model: ModelRefSchema, outcome: RetakeOutcomeSchema })),
})
export type RetakeCompareOutcome = z.infer<typeof RetakeCompareOutcomeSchema>

export const SessionForkOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('done'),
    sessionID: z.string(),
    /** The folder the fork works in (the project's own, or the new one). */
    directory: z.string(),
    /** Files of that point that could not be written out, with why. */
    skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  }),
  z.object({ status: z.literal('failed'), error: z.string() }),
])
export type SessionForkOutcome = z.infer<typeof SessionForkOutcomeSchema>

export const AttemptContinueOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('done'),
    /** The `at` of the attempt the branch left behind became (null: a cut-off switch finished, nothing to keep). */
    kept: z.number().nullable(),
    /** The current branch's files rolled back (null: it changed none, or they were left). */
    rollback: ApplyResultSchema.nullable(),
    /** The attempt's files brought back (null: its retake had rolled no files back). */
    filesBack: ApplyResultSchema.nullable(),
  }),
  z.object({ status: z.literal('failed'), error: z.string() }),
])
export type AttemptContinueOutcome = z.infer<typeof AttemptContinueOutcomeSchema>

export const channels = {
  'app.info': { input: empty, output: AppInfoSchema },
  'server.status': { input: empty, output: ServerStatusSchema },
  'server.restart': { input: empty, output: ServerStatusSchema },
  'projects.recent': { input: empty, output: z.array(RecentProjectSchema) },
  /** Validates that the path is an existing folder and remembers it. */
  'projects.open': { input: z.object({ path: z.string().min(1).max(4096) }), output: RecentProjectSchema },
  'projects.forget': { input: z.object({ path: z.string().min(1) }), output: z.array(RecentProjectSchema) },
  /** The subfolders of a folder (default: home; `~` expanded), for the picker where there is no native dialog. */
  'projects.browse': {
    input: z.object({ path: z.string().max(4096).optional() }),
    output: z.object({
      path: z.string(),
      parent: z.string().nullable(),
      folders: z.array(z.object({ name: z.string(), path: z.string(), hidden: z.boolean(), project: z.boolean() })),
      truncated: z.boolean(),
    }),
  },
  /** Native folder dialog (desktop only); null when the user cancels. */
  'projects.pick': { input: empty, output: RecentProjectSchema.nullable() },
  'settings.get': { input: empty, output: SettingsViewSchema },
  'settings.update': { input: SettingsUpdateSchema, output: SettingsViewSchema },
  'savedRetakes.save': { input: SavedRetakeSchema, output: z.literal(true) },
  'savedRetakes.list': { input: z.object({ sessionID: SessionIdSchema }), output: z.array(SavedRetakeSchema) },
  'savedRetakes.drop': { input: z.object({ sessionID: SessionIdSchema, messageID: MessageIdSchema }), output: z.literal(true) },
  // No channel adds an attempt: the host records each one itself from opencode's own answer when a
  // retake or a switch replaces a branch (retake-host.ts, continue-attempt.ts). An attempt the
  // window could hand in would be replayed as the conversation by "continue from this attempt".
  'attempts.list': { input: z.object({ sessionID: SessionIdSchema }), output: z.array(AttemptSchema) },
  /** Makes a kept attempt the current branch again, conversation and files (continue-attempt.ts). */
  'attempts.continue': {
    input: z.object({
      directory,
      sessionID: SessionIdSchema,
      messageID: MessageIdSchema,
      at: z.number(),
      files: z.object({ planId: z.string().min(1), overwrite: z.array(z.string()).default([]), keep: z.array(z.string()).default([]) }).optional(),
      /** The conversation only: the files stay as they are now. */
      leaveFiles: z.boolean().optional(),
    }),
    output: AttemptContinueOutcomeSchema,
  },
  'shell.openExternal': { input: z.object({ url: z.string().url() }), output: z.boolean() },
  /** Every recorded turn of a session with what it changed on disk. */
  'checkpoints.list': { input: z.object({ directory, sessionID: SessionIdSchema }), output: z.array(TurnCheckpointSchema) },
  /** What one turn changed on disk, with a unified diff per text file. */
  'checkpoints.changes': { input: z.object({ directory, sessionID: SessionIdSchema, messageID: MessageIdSchema }), output: z.array(ChangeItemSchema) },
  /**
   * What undoing a restore would change, with diffs: for the restore a retake made, what the
   * replaced attempt had done on disk (its files changed, shown on the attempt and compared).
   */
  'checkpoints.restoreChanges': { input: z.object({ directory, restoreId: z.string().min(1) }), output: z.array(ChangeItemSchema) },
  /** What a restore would do; nothing is written. The plan stays in the host, referred to by id. */
  'checkpoints.plan': {
    input: z.object({ directory, target: z.union([z.object({ turn: TurnKeySchema }), z.object({ backTo: TurnKeySchema })]) }),
    output: RestorePlanSchema,
  },
  'checkpoints.apply': {
    input: z.object({
      directory,
      planId: z.string().min(1),
      onConflict: z.enum(['restore-rest', 'cancel']),
      overwrite: z.array(z.string()).default([]),
      /** Files of the plan the user leaves as they are (any kind, not only conflicts). */
      keep: z.array(z.string()).default([]),
    }),
    output: ApplyResultSchema,
  },
  /** Puts the folder back as it was just before a restore. */
  'checkpoints.undo': { input: z.object({ directory, restoreId: z.string().min(1) }), output: ApplyResultSchema },
  'checkpoints.stats': { input: z.object({ directory }), output: CheckpointStatsSchema },
  /** The session's latest restore that can still be undone (or redone), kept by the host across restarts. */
  'checkpoints.lastRestore': {
    input: z.object({ directory, sessionID: SessionIdSchema }),
    output: z.object({ restoreId: z.string(), messageID: z.string(), at: z.number(), rolledBack: z.boolean() }).nullable(),
  },
  /** Reads every checkpoint file and checks it (fsck); repair drops only what nothing refers to. */
  'checkpoints.verify': { input: z.object({ directory, repair: z.boolean().default(false) }), output: CheckpointVerifySchema },
  /** Retention (age/count/bytes) then a sweep of unreferenced blobs. */
  'checkpoints.cleanup': {
    input: z.object({ directory, maxAgeDays: z.number().positive().optional(), maxTurnsPerSession: z.number().int().positive().optional() }),
    output: z.object({ turnsDropped: z.number(), bytesFreed: z.number() }),
  },
  /** Runs a whole retake on the host (journaled: a crash mid-way is finished or rolled back at the next start). */
  'retake.run': { input: RetakeRunSchema, output: RetakeOutcomeSchema },
  'retake.compare': { input: RetakeCompareSchema, output: RetakeCompareOutcomeSchema },
  /** "Fork from here" (fork-session.ts): the conversation up to a turn, with its files or not. */
  'sessions.fork': {
    input: z.object({
      directory,
      sessionID: SessionIdSchema,
      turnID: MessageIdSchema,
      files: z.enum(['leave', 'folder']),
      folder: z.string().max(4096).optional(),
    }),
    output: SessionForkOutcomeSchema,
  },
  /** A session exported by opencode (`opencode export`, or Retake's "Export as opencode JSON") becomes a new session here. */
  'sessions.import': { input: z.object({ directory, data: SessionExportSchema }), output: z.object({ sessionID: SessionIdSchema, messages: z.number() }) },
  /** A session was deleted: its checkpoints, saved retakes and attempt history go too. */
  'sessions.forget': { input: z.object({ directory, sessionID: SessionIdSchema }), output: z.literal(true) },
} as const

export type Channels = typeof channels
export type ChannelName = keyof Channels
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
export type ChannelOutput<C extends ChannelName> = z.infer<Channels[C]['output']>

/** Events pushed from the host to the renderer. */
export const events = {
  'server.status': ServerStatusSchema,
  'checkpoint.progress': CheckpointProgressSchema,
  /**
   * A session's turns were sealed: what they changed is known now. The renderer may have asked for
   * the turns while the seal ran (both react to the session going idle) and refetches on this.
   */
  'checkpoint.sealed': z.object({ directory: z.string(), sessionID: z.string() }),
  /** The step a running retake is at (shown on the message). */
  'retake.progress': z.object({ sessionID: z.string(), messageID: z.string(), step: RetakeStepSchema }),
} as const
export type EventName = keyof typeof events
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>

export type ErrorCode = 'bad-input' | 'forbidden' | 'not-found' | 'unavailable' | 'internal'
export type Envelope<T> = { ok: true; data: T } | { ok: false; error: { code: ErrorCode; message: string } }

export function isChannel(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name)
}

/**
 * The facade the renderer sees: the preload exposes it through contextBridge, browser mode
 * implements it over HTTP. The renderer cannot tell which one it runs on.
 */
export interface RetakeBridge {
  invoke<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}

/** Where the renderer reaches the opencode proxy, relative to its own origin. */
export { OPENCODE_PROXY_PATH } from './opencode-proxy-path'
