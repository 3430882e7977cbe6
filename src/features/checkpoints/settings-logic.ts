/**
 * Checks and patches behind the Settings dialog, as pure functions. The host has the last word (it
 * validates again and its message is shown); these catch what can be told without the disk.
 */
import type { Settings } from '../../../shared/ipc-contract'

export type Folder = Settings['extraFolders'][number]

const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\')
const normalize = (p: string) => (p.length > 1 ? p.replace(/[\\/]+$/, '') : p)

/** A folder to add, or why not: must be absolute, new, and not the project itself (always recorded). */
export function checkNewFolder(input: string, existing: Folder[], project: string): { ok: true; path: string } | { ok: false; error: string } {
  const path = normalize(input.trim())
  if (!path) return { ok: false, error: 'Type the folder’s full path.' }
  if (!isAbsolute(path)) return { ok: false, error: 'Use a full path (starting with / or a drive letter).' }
  if (path === normalize(project)) return { ok: false, error: 'The project folder is always checkpointed.' }
  if (existing.some((f) => normalize(f.path) === path)) return { ok: false, error: 'That folder is already in the list.' }
  return { ok: true, path }
}

export function addFolder(list: Folder[], path: string, shared: boolean): Folder[] {
  return [...list, { path, shared }]
}

export function removeFolder(list: Folder[], path: string): Folder[] {
  return list.filter((f) => f.path !== path)
}

export function setShared(list: Folder[], path: string, shared: boolean): Folder[] {
  return list.map((f) => (f.path === path ? { ...f, shared } : f))
}

/** One gitignore-style pattern per line; blank lines dropped, `#` comments kept out too. */
export function parseExcludes(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
}

export function excludesText(list: string[]): string {
  return list.join('\n')
}

/**
 * The server part of the settings: an empty URL means "use the embedded server". The password is
 * only sent when typed (it is write-only: the host never returns it, so blank means "unchanged").
 */
export function serverPatch(form: {
  remoteUrl: string
  password: string
  configPath: string
  useUserHome: boolean
}): { ok: true; patch: { remoteUrl: string | null; remotePassword?: string; opencodeConfigPath: string | null; useUserOpencodeHome: boolean } } | { ok: false; error: string } {
  const url = form.remoteUrl.trim()
  if (url) {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return { ok: false, error: 'The server URL is not a valid URL (e.g. http://127.0.0.1:4096).' }
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, error: 'The server URL must start with http:// or https://.' }
  }
  if (!url && form.password) return { ok: false, error: 'A password needs the server URL it is for.' }
  const configPath = form.configPath.trim()
  if (configPath && !isAbsolute(configPath)) return { ok: false, error: 'The opencode config path must be a full path.' }
  return {
    ok: true,
    patch: {
      remoteUrl: url || null,
      ...(form.password ? { remotePassword: form.password } : {}),
      opencodeConfigPath: configPath || null,
      useUserOpencodeHome: form.useUserHome,
    },
  }
}

const originOf = (url: string | null | undefined): string | null => {
  try {
    return url ? new URL(url.trim()).origin : null
  } catch {
    return null
  }
}

/**
 * What the password field says. The host keeps a saved password only for the server (origin) it
 * was typed for, so saving another URL without typing one drops it: the user is told before saving.
 */
export function passwordHint(
  form: { remoteUrl: string; password: string },
  saved: { remoteUrl: string | null; remotePasswordSaved?: boolean },
): {
  placeholder: string
  warning: string | null
} {
  const sameServer = originOf(form.remoteUrl) !== null && originOf(form.remoteUrl) === originOf(saved.remoteUrl)
  if (sameServer && saved.remotePasswordSaved) return { placeholder: 'Password (leave empty to keep the saved one)', warning: null }
  const placeholder = 'Password (none saved for this server)'
  if (!saved.remotePasswordSaved || form.password || sameServer) return { placeholder, warning: null }
  const old = originOf(saved.remoteUrl)
  return {
    placeholder,
    warning: `The saved password is only for ${old}; it will not be sent to another server. ${
      originOf(form.remoteUrl) ? 'Enter the password for the new server (leave it empty if it has none).' : 'Saving forgets it.'
    }`,
  }
}
