/**
 * "Fork from here": a new session with the conversation up to and including one turn (opencode's
 * session fork, which copies the messages under new ids). Its files, as the user chooses:
 * - leave them: the fork works in the same folder; the checkpoint records of the copied turns are
 *   copied too, so a retake in the fork rolls back files as one in the original would;
 * - a folder of its own: the project as that turn left it (its sealed checkpoint) is written into
 *   a new folder — a git worktree of the same repository for a git project, a plain folder
 *   otherwise — and the session is moved there (opencode's move-session), so its turns change that
 *   folder and the original session's files stay as they are.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import type { OpencodeClient } from '@opencode-ai/sdk/v2/client'
import type { SessionForkOutcome } from '../../shared/ipc-contract'
import { unwrap } from '../../shared/unwrap'
import type { CheckpointService } from '../checkpoint-service'
import { expandHome } from '../store/folders'
import { messagesBackTo } from './session-pages'

export interface ForkInput {
  directory: string
  sessionID: string
  /** The user message of the last turn the fork keeps. */
  turnID: string
  files: 'leave' | 'folder'
  /** For `folder`: where the files go (must not exist, or be an empty folder). */
  folder?: string
}

interface Deps {
  client: OpencodeClient
  post(path: string, body: unknown): Promise<{ status: number; json: unknown }>
  checkpoints: CheckpointService
}

export async function forkSession(d: Deps, input: ForkInput): Promise<SessionForkOutcome> {
  const list = await messagesBackTo(d.client, input.sessionID, input.turnID)
  const at = list.findIndex((m) => m.info.id === input.turnID)
  if (at < 0) return { status: 'failed', error: 'That message is not in this session any more' }
  // opencode forks the messages before the one named: the next question, or none (all of them).
  const next = list.slice(at + 1).find((m) => m.info.role === 'user')?.info.id

  let folder: Folder | null = null
  if (input.files === 'folder') {
    const made = await prepareFolder(d, input)
    if ('error' in made) return { status: 'failed', error: made.error }
    folder = made.folder
  }
  const forked = unwrap('session.fork', await d.client.session.fork({ sessionID: input.sessionID, ...(next ? { messageID: next } : {}) })) as { id: string }
  if (folder === null) {
    const store = await d.checkpoints.store(input.directory)
    await store.forkSession(input.sessionID, forked.id, input.turnID, await forkedIds(d.client, input.sessionID, forked.id))
    return { status: 'done', sessionID: forked.id, directory: input.directory, skipped: [] }
  }
  const moved = await d.post('/experimental/control-plane/move-session', { sessionID: forked.id, destination: { directory: folder.path }, moveChanges: false })
  if (moved.status !== 204 && moved.status !== 200) {
    unwrap('session.delete', await d.client.session.delete({ sessionID: forked.id }))
    folder.undo()
    const why = (moved.json as { data?: { message?: string } } | null)?.data?.message ?? `HTTP ${moved.status}`
    return { status: 'failed', error: `opencode could not move the fork to ${folder.path}: ${why}` }
  }
  return { status: 'done', sessionID: forked.id, directory: folder.path, skipped: folder.skipped }
}

type Folder = { path: string; skipped: { path: string; reason: string }[]; undo(): void }

type Listed = { info: { id: string; role: string } }

/** The fork's id of each copied user message, keyed by the original's (see pairForkedIds). */
async function forkedIds(client: OpencodeClient, from: string, to: string): Promise<Record<string, string>> {
  const [original, fork] = await Promise.all([from, to].map(async (sessionID) => unwrap('session.messages', await client.session.messages({ sessionID })) as unknown as Listed[]))
  return pairForkedIds(original!, fork!)
}

/**
 * opencode's fork copies the session's first messages in order under ids of their own, so the
 * fork's messages pair with the original's position by position (the original may have more: the
 * ones after the fork point, or a turn still answering). Roles that do not line up mean the lists
 * are not what the fork copied: no pairs then (the copies keep the original's ids).
 */
export function pairForkedIds(original: readonly Listed[], fork: readonly Listed[]): Record<string, string> {
  if (fork.length > original.length || fork.some((m, i) => m.info.role !== original[i]!.info.role)) return {}
  const ids: Record<string, string> = {}
  fork.forEach((m, i) => {
    if (m.info.role === 'user') ids[original[i]!.info.id] = m.info.id
  })
  return ids
}

async function prepareFolder(d: Deps, input: ForkInput): Promise<{ folder: Folder } | { error: string }> {
  const target = expandHome((input.folder ?? '').trim())
  if (!target || !isAbsolute(target)) return { error: 'Choose a folder for the fork’s files (a full path)' }
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    return { error: `${target} already exists and is not an empty folder: nothing there is overwritten` }
  }
  if (!existsSync(dirname(target))) return { error: `${dirname(target)} does not exist` }
  const existed = existsSync(target)
  const git = existsSync(join(input.directory, '.git'))
  const undo = () => {
    if (git) {
      try {
        execFileSync('git', ['worktree', 'remove', '--force', target], { cwd: input.directory, stdio: 'ignore' })
      } catch {
        /* removed below */
      }
    }
    if (!existed) rmSync(target, { recursive: true, force: true })
  }
  try {
    if (git) {
      // A worktree of the same repository: the fork's history is the project's, so opencode
      // counts it as the same project (and can move the session there).
      execFileSync('git', ['worktree', 'add', '--detach', target, 'HEAD'], { cwd: input.directory, stdio: 'ignore' })
      for (const name of readdirSync(target)) if (name !== '.git') rmSync(join(target, name), { recursive: true, force: true })
    } else mkdirSync(target, { recursive: true })
    const store = await d.checkpoints.store(input.directory)
    const out = await store.exportTurnFiles({ sessionID: input.sessionID, messageID: input.turnID }, realpathSync(input.directory), target)
    return { folder: { path: realpathSync(target), skipped: out.skipped, undo } }
  } catch (err) {
    undo()
    return { error: `The fork’s files could not be written to ${target}: ${(err as Error).message}` }
  }
}
