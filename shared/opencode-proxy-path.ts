/**
 * Where the renderer reaches opencode on its own origin. Its own module, not only in ipc-contract:
 * that file builds zod schemas when loaded, and the renderer needs just this string (zod alone was
 * 85 kB of the first load).
 */
export const OPENCODE_PROXY_PATH = '/opencode'
