/**
 * opencode-style ascending ids (`msg_` + 12 hex of time×4096+counter + 14 random characters), so a
 * message id Retake chooses for a prompt looks and sorts like one the server would have made.
 * Pure; uses Web Crypto, available in Node 20 and every renderer.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
let lastTime = 0
let counter = 0

export function ascendingId(prefix: 'msg' | 'prt', now: number = Date.now()): string {
  if (now !== lastTime) {
    lastTime = now
    counter = 0
  }
  counter += 1
  const value = (BigInt(now) * 0x1000n + BigInt(counter)) & 0xffffffffffffn
  const random = new Uint8Array(14)
  globalThis.crypto.getRandomValues(random)
  let tail = ''
  for (const b of random) tail += ALPHABET[b % ALPHABET.length]
  return `${prefix}_${value.toString(16).padStart(12, '0')}${tail}`
}
