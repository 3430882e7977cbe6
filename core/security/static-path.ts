/**
 * Maps a URL path to a file under the renderer's folder for the app:// protocol and browser mode's
 * static server. Anything that could step outside the folder is refused rather than normalised:
 * `..` (also percent-encoded), absolute and UNC paths, backslashes, NUL bytes.
 */
import { isAbsolute, join, normalize, relative, sep } from 'node:path'

export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0].split('#')[0])
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  if (/^\/\//.test(decoded) || /^[a-zA-Z]:/.test(decoded.replace(/^\/+/, ''))) return null
  const segments = decoded.split('/').filter((s) => s.length > 0)
  if (segments.some((s) => s === '..' || s === '.')) return null
  const rel = segments.length === 0 ? 'index.html' : segments.join('/')
  if (isAbsolute(rel)) return null
  const full = normalize(join(root, rel))
  const back = relative(root, full)
  if (back.startsWith('..') || isAbsolute(back) || back.split(sep).includes('..')) return null
  return full
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
}

export function contentTypeFor(file: string): string {
  const dot = file.lastIndexOf('.')
  return TYPES[dot >= 0 ? file.slice(dot).toLowerCase() : ''] ?? 'application/octet-stream'
}
