// What a turn does to the folder (an agent's tools, an install) and what a user does around it.
import fs from 'node:fs'
import { Gen } from './gen'
import { readTree } from './tree'
import type { Node, Tree } from './tree'

const files = (t: Tree): string[] => [...t].filter(([p, n]) => n.t === 'f' && p !== '.gitignore').map(([p]) => p)
const links = (t: Tree): string[] => [...t].filter(([, n]) => n.t === 'l').map(([p]) => p)
const dirs = (t: Tree): string[] => [...t].filter(([, n]) => n.t === 'd').map(([p]) => p)

/** One random turn: 1–8 operations, re-reading the tree between them. */
export function turnOps(g: Gen): string[] {
  const log: string[] = []
  const n = 1 + g.r.int(8)
  for (let i = 0; i < n; i++) log.push(turnOp(g, readTree(g.root)))
  return log
}

function turnOp(g: Gen, t: Tree): string {
  const r = g.r
  const kind = r.int(g.flags.gitignoreRewrite ? 11 : 10)
  const f = files(t)
  if (kind === 0 && f.length) {
    const p = r.pick(f)
    g.writeFile(p, g.content(), (t.get(p) as { mode: number }).mode)
    return `edit ${p}`
  }
  if (kind === 1 && f.length) {
    // Same size, different bytes: only the content tells the change.
    const p = r.pick(f)
    const old = (t.get(p) as { data: Buffer }).data
    const neu = Buffer.from(old.map((b) => (b + 1 + r.int(200)) & 0xff))
    g.writeFile(p, neu, (t.get(p) as { mode: number }).mode)
    return `edit-same-size ${p}`
  }
  if (kind === 2) {
    const p = g.freshPath(t)
    g.writeFile(p, g.content())
    return `create ${p}`
  }
  if (kind === 3 && t.size) {
    const p = r.pick([...t.keys()].filter((k) => k !== '.gitignore'))
    if (p === undefined) return 'nothing'
    fs.rmSync(g.abs(p), { recursive: true, force: true })
    return `delete ${p}`
  }
  if (kind === 4 && t.size) {
    const from = r.pick([...t.keys()].filter((k) => k !== '.gitignore'))
    if (from === undefined) return 'nothing'
    const to = g.freshPath(new Map([...t].filter(([k]) => k !== from && !k.startsWith(from + '/'))))
    if (to.startsWith(from + '/')) return 'nothing'
    const slash = to.lastIndexOf('/')
    if (slash > 0) g.mkdirs(to.slice(0, slash))
    fs.renameSync(g.abs(from), g.abs(to))
    return `rename ${from} → ${to}`
  }
  if (kind === 5 && f.length) {
    const p = r.pick(f)
    fs.chmodSync(g.abs(p), (t.get(p) as { mode: number }).mode ^ 0o111)
    return `chmod ${p}`
  }
  if (kind === 6) return typeSwap(g, t)
  if (kind === 7 && links(t).length) {
    const p = r.pick(links(t))
    fs.rmSync(g.abs(p))
    fs.symlinkSync(g.symlinkTarget(), g.abs(p))
    return `retarget ${p}`
  }
  if (kind === 8) {
    const base = g.freshPath(t)
    const count = 20 + r.int(300)
    for (let i = 0; i < count; i++) g.writeFile(`${base}/m${i % 7}/f${i}.js`, Buffer.from(`module.exports=${i}\n`), 0o644)
    return `install ${count} files in ${base}`
  }
  if (kind === 9 && dirs(t).length) {
    const p = r.pick(dirs(t))
    const q = g.freshPath(new Map([...t].filter(([k]) => k.startsWith(p + '/') || k === p).map(([k, v]) => [k, v] as [string, Node])), 0)
    g.writeFile(q, g.content())
    return `create-in-dir ${q}`
  }
  if (kind === 10) {
    const rules = r.pick(['*.log\n', '*.tmp\n', 'cache/\n*.md\n', '', 'src/\n'])
    g.writeFile('.gitignore', Buffer.from(rules), 0o644)
    return `gitignore ${JSON.stringify(rules)}`
  }
  return 'nothing'
}

function typeSwap(g: Gen, t: Tree): string {
  const keys = [...t.keys()].filter((k) => k !== '.gitignore')
  if (!keys.length) return 'nothing'
  const p = g.r.pick(keys)
  const was = t.get(p)!.t
  const kinds = ['f', 'd', 'l'].filter((k) => k !== was && (g.flags.folderLinkSwap || (!(was === 'd' && k === 'l') && !(was === 'l' && k === 'd'))))
  const to = g.r.pick(kinds)
  fs.rmSync(g.abs(p), { recursive: true, force: true })
  if (to === 'f') g.writeFile(p, g.content())
  else if (to === 'd') g.writeFile(`${p}/inner.txt`, g.content())
  else fs.symlinkSync(g.symlinkTarget(), g.abs(p))
  return `type-swap ${p} ${was}→${to}`
}

/** Files the user writes while the turn runs (new names the turn never touches). */
export function userDuringTurn(g: Gen): { log: string[]; writes: Map<string, Node> } {
  const writes = new Map<string, Node>()
  const n = 1 + g.r.int(3)
  for (let i = 0; i < n; i++) {
    const p = `user-during-${g.r.int(1e9)}.txt`
    const data = g.content()
    g.writeFile(p, data, 0o644)
    writes.set(p, { t: 'f', data, mode: 0o644 })
  }
  return { log: [...writes.keys()].map((p) => `user-during ${p}`), writes }
}

/**
 * The user edits, while the turn runs, a file the turn's tools wrote: the engine cannot tell the two
 * writes apart (it goes by what the tools named, not by when a file changed), so the edit goes with
 * the turn — the documented limit. Returns the path edited, or null when the turn wrote no file.
 */
export function userEditsTurnFile(g: Gen, changedByTurn: Set<string>): { log: string; path: string } | null {
  const t = readTree(g.root)
  const f = files(t).filter((p) => changedByTurn.has(p))
  if (!f.length) return null
  const p = g.r.pick(f)
  g.writeFile(p, Buffer.concat([g.content(), Buffer.from('user edit during the turn')]), (t.get(p) as { mode: number }).mode)
  return { log: `user-during-edit ${p} (a file the turn wrote)`, path: p }
}

/** The user's edits after the seal (or after a restore): edits, creates, deletes, maybe same-size same-mtime. */
export function userAfter(g: Gen, changedByTurn: Set<string>, kindChanged: string[] = []): string[] {
  const log: string[] = []
  const n = g.r.int(4)
  // Unless userTouchesTypeSwap is on, the user keeps off paths whose kind the turn changed.
  const offLimits = (p: string): boolean => !g.flags.userTouchesTypeSwap && kindChanged.some((d) => p === d || p.startsWith(d + '/'))
  for (let i = 0; i < n; i++) {
    const t = new Map([...readTree(g.root)].filter(([p]) => !offLimits(p)))
    const f = files(t)
    const hot = f.filter((p) => changedByTurn.has(p))
    const kind = g.r.int(g.flags.sameSizeSameMtime ? 5 : 4)
    if (kind === 0 && (hot.length || f.length)) {
      const p = g.r.pick(hot.length ? hot : f)
      g.writeFile(p, Buffer.concat([g.content(), Buffer.from('user edit')]), (t.get(p) as { mode: number }).mode)
      log.push(`user-edit ${p}`)
    } else if (kind === 1) {
      const p = g.freshPath(t)
      if (offLimits(p)) continue
      g.writeFile(p, g.content())
      log.push(`user-create ${p}`)
    } else if (kind === 2 && f.length) {
      const p = g.r.pick(f)
      fs.rmSync(g.abs(p))
      log.push(`user-delete ${p}`)
    } else if (kind === 3 && dirs(t).length) {
      const d = g.r.pick(dirs(t))
      const p = `${d}/user-${g.r.int(1e9)}.txt`
      g.writeFile(p, g.content())
      log.push(`user-create-in-dir ${p}`)
    } else if (kind === 4 && (hot.length || f.length)) {
      const p = g.r.pick(hot.length ? hot : f)
      const old = t.get(p) as { data: Buffer; mode: number }
      if (!old.data.length) continue
      const st = fs.lstatSync(g.abs(p))
      fs.writeFileSync(g.abs(p), Buffer.from(old.data.map((b) => b ^ 0x5a)))
      fs.utimesSync(g.abs(p), st.atime, st.mtime)
      log.push(`user-same-size-same-mtime ${p}`)
    }
  }
  return log
}
