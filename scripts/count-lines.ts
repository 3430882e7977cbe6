// Lines of a source folder, per top-level part: files, total lines, and code lines (neither blank
// nor a comment). The measure behind "the engine is N lines" in docs/checkpoints.md.
//   npx tsx scripts/count-lines.ts [folder]      # default core/checkpoints
import fs from 'node:fs'
import path from 'node:path'

const root = process.argv[2] ?? 'core/checkpoints'
const parts = new Map<string, { files: number; total: number; code: number }>()

function count(file: string): { total: number; code: number } {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  if (lines.at(-1) === '') lines.pop()
  let code = 0
  let inBlock = false
  for (const raw of lines) {
    const l = raw.trim()
    if (inBlock) inBlock = !l.includes('*/')
    else if (l.startsWith('/*')) inBlock = !l.includes('*/')
    else if (l !== '' && !l.startsWith('//')) code++
  }
  return { total: lines.length, code }
}

for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()) {
  if (!/\.tsx?$/.test(rel)) continue
  const part = rel.includes(path.sep) ? rel.split(path.sep)[0]! : '(top)'
  const p = parts.get(part) ?? { files: 0, total: 0, code: 0 }
  const c = count(path.join(root, rel))
  parts.set(part, { files: p.files + 1, total: p.total + c.total, code: p.code + c.code })
}
const sum = { files: 0, total: 0, code: 0 }
const row = (name: string, r: typeof sum) => console.log(`${name.padEnd(10)} ${String(r.files).padStart(5)} ${String(r.total).padStart(7)} ${String(r.code).padStart(7)}`)
console.log(`${'part'.padEnd(10)} files   lines    code`)
for (const [name, r] of parts) {
  row(name, r)
  for (const k of ['files', 'total', 'code'] as const) sum[k] += r[k]
}
row('total', sum)
