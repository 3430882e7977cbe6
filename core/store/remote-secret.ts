/**
 * The saved remote password, bound to the server it was typed for. The secrets file holds the
 * password with the origin of the URL it was saved with; it is handed out only for that origin, so
 * pointing Retake at another server can never send the old server's password there.
 *
 * Origin, not the whole URL: every request Retake makes goes to an absolute path on the server's
 * origin (health check, proxy, event stream), so the origin is exactly where the password travels.
 */
import { z } from 'zod'
import { readJson, writeJson } from './json-file'

export const RemoteSecretSchema = z.object({
  remotePassword: z.string().optional(),
  /** The normalized origin the password was saved for; absent in files written before binding. */
  origin: z.string().optional(),
})
export type RemoteSecret = z.infer<typeof RemoteSecretSchema>

/** `http(s)://host[:port]` with the case and default port normalized, or null for anything else. */
export function serverOrigin(url: string | null | undefined): string | null {
  if (!url) return null
  try {
    const u = new URL(url)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null
  } catch {
    return null
  }
}

/** The password to send to `url`: only the one saved for that very origin. */
export function passwordFor(secret: RemoteSecret, url: string | null | undefined): string | undefined {
  const origin = serverOrigin(url)
  if (!origin || secret.remotePassword === undefined || secret.origin !== origin) return undefined
  return secret.remotePassword
}

/**
 * What the secrets file holds after a settings change. A typed password is bound to the new URL;
 * with none typed, the saved one survives only if the server stays the same origin.
 */
export function secretAfterUpdate(secret: RemoteSecret, change: { url: string | null; typedPassword?: string }): RemoteSecret {
  const origin = serverOrigin(change.url)
  // A password with no server to go to is not kept: it would otherwise wait for whatever URL comes next.
  if (!origin) return {}
  if (change.typedPassword !== undefined) return { remotePassword: change.typedPassword, origin }
  return secret.origin === origin && secret.remotePassword !== undefined ? secret : {}
}

/**
 * A file from before binding has a password and no origin. Earlier versions sent it to the saved
 * remote URL on every start, so it is bound to that URL (nothing new learns it, and the user stays
 * connected); with no saved URL it is dropped. Either way it can never follow a later URL change.
 */
export function migrateLegacySecret(secret: RemoteSecret, savedUrl: string | null): RemoteSecret {
  if (secret.remotePassword === undefined || secret.origin !== undefined) return secret
  const origin = serverOrigin(savedUrl)
  return origin ? { remotePassword: secret.remotePassword, origin } : {}
}

/** The secrets file in the data dir (written atomically, mode 0600 by writeJson). */
export class RemoteSecretStore {
  constructor(private readonly file: string) {}

  read(): RemoteSecret {
    return readJson(this.file, RemoteSecretSchema, {})
  }

  passwordFor(url: string | null | undefined): string | undefined {
    return passwordFor(this.read(), url)
  }

  /** Binds a legacy password to the URL in the settings (see migrateLegacySecret); once, at start. */
  migrate(savedUrl: string | null): void {
    const before = this.read()
    const after = migrateLegacySecret(before, savedUrl)
    if (after !== before) writeJson(this.file, after)
  }

  update(change: { url: string | null; typedPassword?: string }): void {
    const before = this.read()
    const after = secretAfterUpdate(before, change)
    if (after !== before) writeJson(this.file, after)
  }

  /** Whether a password is saved for `url` (the settings dialog says so; the password itself never leaves). */
  hasPasswordFor(url: string | null | undefined): boolean {
    return this.passwordFor(url) !== undefined
  }
}
