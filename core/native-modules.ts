/**
 * Loads a native module the host can do without (@parcel/watcher, @napi-rs/xattr): from
 * node_modules in development and browser mode, and in the packaged desktop app from
 * resources/native/ (staged by scripts/stage-native.mjs; the app's asar holds no node_modules).
 * Returns null where it cannot be loaded — a platform it has no build for, a damaged install — and
 * the caller works without it. A worker thread finds the packaged folder through the environment,
 * which it shares with the main process.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** Set by the desktop main process (electron/main.ts) to resources/native/ of the packaged app. */
export const NATIVE_DIR_ENV = 'RETAKE_NATIVE_DIR'

const loaded = new Map<string, unknown>()

/** Where this module's code is: a file URL under ESM (tsx, vitest), a path in the CommonJS bundle. */
function here(): string {
  return typeof __filename === 'string' ? __filename : import.meta.url
}

export function loadNative<T>(name: string): T | null {
  if (loaded.has(name)) return loaded.get(name) as T | null
  let mod: unknown = null
  const packaged = process.env[NATIVE_DIR_ENV]
  for (const from of [here(), ...(packaged ? [join(packaged, 'node_modules', 'index.js')] : [])]) {
    try {
      mod = createRequire(from)(name)
      break
    } catch {
      // not here: try the next place
    }
  }
  loaded.set(name, mod)
  return mod as T | null
}
