// Child of bench:checkpoints (run on its own, so its peak memory is the plan's): the plan of a turn
// that changed one large text file. Prints one JSON line: the plan's wall time, the longest stretch
// the main thread was blocked meanwhile, the same diff made alone, and the peak RSS the plan added.
//   tsx bench/diff-plan-child.ts <dir> 1mb|205kb
import fs from 'node:fs'
import path from 'node:path'
import { openCheckpointStore } from '../core/checkpoints/index'
import { diffBuffers } from '../core/checkpoints/plan/diff'

const [dir, which] = process.argv.slice(2) as [string, '1mb' | '205kb']
const ws = path.join(dir, 'ws')
fs.mkdirSync(ws, { recursive: true })
const lines: string[] = []
if (which === '1mb') {
  // A 1 MB file with three edits: the common case, most of it set aside as shared start and end.
  for (let i = 0; lines.join('\n').length < 1_000_000 - 80; i++) lines.push(`line ${i}: the quick brown fox jumps over the lazy dog ${i * 7919}`)
} else {
  // ~205 KB with every third line changed: the worst case for the search (D ≈ 2,700).
  for (let i = 0; i < 2_700; i++) lines.push(`export const value${i} = compute(${i}, 'a source line of typical length') // ${i}`)
}
const before = Buffer.from(lines.join('\n'))
const after = lines.map((l, i) => (which === '1mb' ? ([100, 5000, 12000].includes(i) ? `edited by the turn at ${i}` : l) : i % 3 === 0 ? l.replace('compute', 'recompute') : l))
const file = path.join(ws, 'big.txt')
fs.writeFileSync(file, before)
const store = await openCheckpointStore({ storeDir: path.join(dir, 'store'), roots: [{ path: ws }] })
await store.capture('bench/d1')
fs.writeFileSync(file, after.join('\n'))
await store.seal('bench/d1')
const rss0 = process.resourceUsage().maxRSS
// The longest gap between ticks of a 1 ms timer while the plan is made = the longest block.
let last = performance.now()
let blockMs = 0
const tick = setInterval(() => {
  const now = performance.now()
  blockMs = Math.max(blockMs, now - last)
  last = now
}, 1)
const t = performance.now()
const plan = await store.plan({ turnKey: 'bench/d1' })
const planMs = performance.now() - t
blockMs = Math.max(blockMs, performance.now() - last)
clearInterval(tick)
const extraMb = (process.resourceUsage().maxRSS - rss0) / 1024
const a = plan.actions[0]
const t2 = performance.now()
const inline = diffBuffers(fs.readFileSync(file), before, 'big.txt')
const inlineMs = performance.now() - t2
if (a?.diff !== inline.text)
  throw new Error(`the plan diff differs from the inline diff: ${a?.diff?.length} vs ${inline.text?.length} ${JSON.stringify({ ...a, diff: undefined })}`)
await store.close()
console.log(JSON.stringify({ bytes: before.length, planMs, blockMs, inlineMs, extraMb, diffLines: a?.diff?.split('\n').length ?? 0 }))
