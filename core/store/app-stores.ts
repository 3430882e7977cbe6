/**
 * Retake's own small stores in the data dir: settings, recent projects, saved retakes and the
 * attempt history of retaken turns. Each is a JSON file written atomically.
 */
import { join, basename, isAbsolute } from 'node:path'
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { z } from 'zod'
import { AttemptSchema, RecentProjectSchema, SavedRetakeSchema, SettingsSchema, type Attempt, type RecentProject, type SavedRetake, type Settings } from '../../shared/ipc-contract'
import { readJson, writeJson } from './json-file'
import { expandHome } from './folders'

export const DEFAULT_SETTINGS: Settings = {
  remoteUrl: null,
  opencodeConfigPath: null,
  // The user's own opencode setup (config, provider keys, sessions), as any opencode client would;
  // Retake's config file is merged over it by opencode (OPENCODE_CONFIG). Off: a separate HOME.
  useUserOpencodeHome: true,
  extraFolders: [],
  excludes: [],
}

const MAX_RECENT = 12
const MAX_ATTEMPTS_PER_SESSION = 200

export class AppStores {
  constructor(private readonly dataDir: string) {}

  private file(name: string) {
    return join(this.dataDir, name)
  }

  getSettings(): Settings {
    return readJson(this.file('settings.json'), SettingsSchema, DEFAULT_SETTINGS)
  }

  updateSettings(patch: Partial<Settings>): Settings {
    // Folders checkpointed with every turn must exist: a typo would silently checkpoint nothing.
    for (const f of patch.extraFolders ?? []) {
      let ok = false
      try {
        ok = isAbsolute(f.path) && statSync(f.path).isDirectory()
      } catch {
        ok = false
      }
      if (!ok) throw new UserInputError(`Extra folder ${f.path} is not an existing folder (give its full path)`)
    }
    if (patch.opencodeConfigPath) {
      let ok = false
      try {
        ok = statSync(patch.opencodeConfigPath).isFile()
      } catch {
        ok = false
      }
      if (!ok) throw new UserInputError(`No opencode config file at ${patch.opencodeConfigPath}`)
    }
    const next = SettingsSchema.parse({ ...this.getSettings(), ...patch })
    writeJson(this.file('settings.json'), next)
    return next
  }

  recentProjects(): RecentProject[] {
    return readJson(this.file('recent-projects.json'), z.array(RecentProjectSchema), [])
  }

  /** Validates the folder and puts it first in the recent list. */
  openProject(path: string): RecentProject {
    const abs = expandHome(path)
    let isDir = false
    try {
      isDir = statSync(abs).isDirectory()
    } catch (err) {
      throw new UserInputError(`No folder at ${abs} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`)
    }
    if (!isDir) throw new UserInputError(`${abs} is a file, not a folder`)
    const entry: RecentProject = { path: abs, name: basename(abs) || abs, openedAt: Date.now() }
    const list = [entry, ...this.recentProjects().filter((p) => p.path !== abs)].slice(0, MAX_RECENT)
    writeJson(this.file('recent-projects.json'), list)
    return entry
  }

  forgetProject(path: string): RecentProject[] {
    const list = this.recentProjects().filter((p) => p.path !== path)
    writeJson(this.file('recent-projects.json'), list)
    return list
  }

  private savedRetakeFile(sessionID: string) {
    return this.file(join('saved-retakes', `${sessionID}.json`))
  }

  /** Where versions before the saved-retakes folder kept them: still read, so their payloads load. */
  private legacySavedRetakeFile(sessionID: string) {
    return this.file(join('retries', `${sessionID}.json`))
  }

  savedRetakes(sessionID: string): SavedRetake[] {
    const file = this.savedRetakeFile(sessionID)
    const legacy = this.legacySavedRetakeFile(sessionID)
    return readJson(existsSync(file) || !existsSync(legacy) ? file : legacy, z.array(SavedRetakeSchema), [])
  }

  /** The session's list written to its file; a list left in the legacy folder goes once it is carried over. */
  private writeSavedRetakes(sessionID: string, list: SavedRetake[]): void {
    writeJson(this.savedRetakeFile(sessionID), list)
    rmSync(this.legacySavedRetakeFile(sessionID), { force: true })
  }

  saveRetake(entry: SavedRetake): void {
    const rest = this.savedRetakes(entry.sessionID).filter((r) => r.messageID !== entry.messageID)
    this.writeSavedRetakes(entry.sessionID, [...rest, entry])
  }

  dropRetake(sessionID: string, messageID: string): void {
    const list = this.savedRetakes(sessionID)
    const rest = list.filter((r) => r.messageID !== messageID)
    if (rest.length !== list.length) this.writeSavedRetakes(sessionID, rest)
  }

  /** A deleted session takes its saved retakes and attempt history with it. */
  forgetSession(sessionID: string): void {
    rmSync(this.savedRetakeFile(sessionID), { force: true })
    rmSync(this.legacySavedRetakeFile(sessionID), { force: true })
    rmSync(this.attemptsFile(sessionID), { force: true })
  }

  private attemptsFile(sessionID: string) {
    return this.file(join('attempts', `${sessionID}.json`))
  }

  attempts(sessionID: string): Attempt[] {
    return readJson(this.attemptsFile(sessionID), z.array(AttemptSchema), [])
  }

  addAttempt(attempt: Attempt): void {
    const list = [...this.attempts(attempt.sessionID), attempt].slice(-MAX_ATTEMPTS_PER_SESSION)
    writeJson(this.attemptsFile(attempt.sessionID), list)
  }

  /** Every restore an attempt of any session points to (its files): kept by checkpoint clean-ups. */
  attemptRestoreIds(): string[] {
    const dir = this.file('attempts')
    if (!existsSync(dir)) return []
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .flatMap((n) => this.attempts(n.slice(0, -'.json'.length)).flatMap((a) => (a.restoreId ? [a.restoreId] : [])))
  }

  /** Notes the restore that rolled an attempt's files back (see Attempt.restoreId). */
  setAttemptRestore(sessionID: string, messageID: string, at: number, restoreId: string): void {
    this.patchAttempt(sessionID, messageID, at, { restoreId })
  }

  /** Notes that a switch to this attempt is rewriting the conversation (see Attempt.switching). */
  markSwitching(sessionID: string, messageID: string, at: number): void {
    this.patchAttempt(sessionID, messageID, at, { switching: true })
  }

  private patchAttempt(sessionID: string, messageID: string, at: number, patch: Partial<Attempt>): void {
    const list = this.attempts(sessionID)
    const i = list.findIndex((a) => a.messageID === messageID && a.at === at)
    if (i < 0) return
    list[i] = { ...list[i]!, ...patch }
    writeJson(this.attemptsFile(sessionID), list)
  }

  /** Takes back one attempt (a retake that stopped before the conversation changed recorded it). */
  forgetAttempt(sessionID: string, messageID: string, at: number): void {
    const list = this.attempts(sessionID)
    const kept = list.filter((a) => !(a.messageID === messageID && a.at === at))
    if (kept.length !== list.length) writeJson(this.attemptsFile(sessionID), kept)
  }
}

/** An error whose message is meant for the user (bad input), not an internal failure. */
export class UserInputError extends Error {
  readonly code = 'bad-input'
}
