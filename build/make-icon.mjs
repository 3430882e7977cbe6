// Draws build/icon.png (1024×1024): a rounded square with a ↺ "retake" arrow. A script rather than a
// binary from a design tool so the icon can be regenerated and reviewed; electron-builder derives the
// macOS .icns, Windows .ico and Linux sizes from this one PNG. Run: node build/make-icon.mjs
import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const N = 1024
const px = Buffer.alloc(N * N * 4)

function crc32(buf) {
  let c = ~0
  for (const b of buf) {
    c ^= b
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
  }
  return ~c >>> 0
}
function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

// Signed distances (negative inside), sampled 4× per pixel for smooth edges.
const roundedSquare = (x, y) => {
  const h = 430, r = 190
  const qx = Math.abs(x) - (h - r), qy = Math.abs(y) - (h - r)
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r
}
const ring = (x, y) => {
  const d = Math.abs(Math.hypot(x, y) - 230) - 52
  // Leave a gap at the upper right where the arrow head sits.
  const a = Math.atan2(-y, x)
  return a > 0.2 && a < 1.3 ? Math.max(d, 60) : d
}
const arrowHead = (x, y) => {
  // A triangle on the ring's end at the right of the gap, pointing along the anticlockwise turn.
  const pts = [[345, -70], [106, -21], [194, -215]]
  let pos = 0, neg = 0
  let dist = Infinity
  for (let i = 0; i < 3; i++) {
    const [ax, ay] = pts[i], [bx, by] = pts[(i + 1) % 3]
    const ex = bx - ax, ey = by - ay
    const t = Math.max(0, Math.min(1, ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey)))
    dist = Math.min(dist, Math.hypot(x - ax - t * ex, y - ay - t * ey))
    if (ex * (y - ay) - ey * (x - ax) < 0) neg++
    else pos++
  }
  return pos === 3 || neg === 3 ? -dist : dist
}

for (let j = 0; j < N; j++) {
  for (let i = 0; i < N; i++) {
    let bg = 0, fg = 0
    for (let s = 0; s < 4; s++) {
      const x = i + 0.25 + (s % 2) * 0.5 - N / 2, y = j + 0.25 + (s >> 1) * 0.5 - N / 2
      if (roundedSquare(x, y) < 0) {
        bg++
        if (Math.min(ring(x, y), arrowHead(x, y)) < 0) fg++
      }
    }
    const o = (j * N + i) * 4
    const t = j / N
    // Background: a deep indigo gradient; foreground: near-white.
    const base = [Math.round(52 - 20 * t), Math.round(58 - 22 * t), Math.round(140 - 40 * t)]
    const f = bg ? fg / bg : 0
    px[o] = Math.round(base[0] * (1 - f) + 245 * f)
    px[o + 1] = Math.round(base[1] * (1 - f) + 246 * f)
    px[o + 2] = Math.round(base[2] * (1 - f) + 255 * f)
    px[o + 3] = Math.round((bg / 4) * 255)
  }
}

const raw = Buffer.alloc(N * (N * 4 + 1))
for (let j = 0; j < N; j++) px.copy(raw, j * (N * 4 + 1) + 1, j * N * 4, (j + 1) * N * 4)
const ihdr = Buffer.alloc(13)
ihdr.writeUInt32BE(N, 0)
ihdr.writeUInt32BE(N, 4)
ihdr.set([8, 6, 0, 0, 0], 8) // 8-bit RGBA
const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))])
writeFileSync(new URL('./icon.png', import.meta.url), png)
console.log(`build/icon.png: ${N}×${N}, ${png.length} bytes`)
