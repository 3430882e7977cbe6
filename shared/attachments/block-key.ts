/**
 * The install's key for inlined-attachment tags (inlined-attachment.ts), apart so the window's
 * shell can install it from app.info without loading the attachment code.
 */

/** A random key until the host's arrives, so a page that never gets one still tags what it makes. */
let key: Uint8Array = globalThis.crypto.getRandomValues(new Uint8Array(32))
let version = 0

/** Installs the host's per-install key (hex, from app.info); earlier parse results are forgotten. */
export function setBlockKey(hex: string): void {
  if (!/^(?:[0-9a-f]{2}){16,64}$/.test(hex)) throw new Error('The attachment key must be 16 to 64 bytes of hex')
  key = Uint8Array.from(hex.match(/../g)!, (b) => parseInt(b, 16))
  version++
}

export const blockKey = (): Uint8Array => key
/** Changes with every new key: results judged with an older key are stale. */
export const blockKeyVersion = (): number => version
