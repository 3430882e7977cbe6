// The walk of a large root with the lstat of its files done by worker threads (stat-pool.ts) while
// this thread goes on listing folders. It records exactly what walkRoot (scanner.ts) records.
import fs from 'node:fs'
import { RootScan, lstatOrNull, rootStat } from './scanner'
import type { Defer, ScanContext, WalkResult } from './scanner'
import { STAT_FIELDS } from './stat-pool'
import type { StatBatch, StatPool } from './stat-pool'

const { S_IFMT, S_IFDIR } = fs.constants

/** Paths per pool message: big enough to amortise a message, small enough to spread the work. */
const POOL_BATCH = 1024

/**
 * The same walk with the lstat of files done by `pool` while this thread goes on listing folders.
 * Results are taken in listing order; a batch whose worker failed is done here. A path the
 * listing called a file but lstat found to be a folder (replaced during the walk) is walked here.
 */
export async function walkRootPooled(ctx: ScanContext, pool: Pick<StatPool, 'stat'>): Promise<WalkResult> {
  const scan = new RootScan(ctx)
  const sent: { batch: StatBatch; keys: string[]; rows: Promise<Float64Array | null> }[] = []
  let batch: StatBatch = { prefixes: [], counts: [], names: [] }
  let keys: string[] = []
  const send = (): void => {
    if (!keys.length) return
    sent.push({ batch, keys, rows: pool.stat(batch).catch(() => null) })
    batch = { prefixes: [], counts: [], names: [] }
    keys = []
  }
  ctx.memo?.begin()
  const defer: Defer = (prefix, name, key) => {
    const last = batch.prefixes.length - 1
    if (last >= 0 && batch.prefixes[last] === prefix) batch.counts[last]!++
    else {
      batch.prefixes.push(prefix)
      batch.counts.push(1)
    }
    batch.names.push(name)
    keys.push(key)
    if (keys.length >= POOL_BATCH) send()
  }
  scan.walk(ctx.rootAbs, '', defer, rootStat(ctx.rootAbs))
  send()
  for (const { batch: b, keys: bk, rows: pending } of sent) {
    const rows = await pending
    let i = 0
    for (let d = 0; d < b.prefixes.length; d++) {
      const prefix = b.prefixes[d]!
      for (const end = i + b.counts[d]!; i < end; i++) {
        const key = bk[i]!
        const o = i * STAT_FIELDS
        const mode = rows ? rows[o]! : 0
        if (mode < 0) continue // deleted while walking
        if (rows && (mode & S_IFMT) !== S_IFDIR) {
          scan.add(key, prefix, b.names[i]!, mode, rows[o + 1]!, rows[o + 2]!, rows[o + 3]!, rows[o + 4]!)
          continue
        }
        // No row (the worker failed), or a folder where the listing saw none: lstat here.
        const abs = prefix + b.names[i]!
        const st = lstatOrNull(abs)
        if (st && st.isDirectory()) raceFolder(ctx, scan, key, abs, st)
        else if (st) scan.addStat(key, abs, st)
      }
    }
  }
  ctx.memo?.end()
  ctx.progress.filesTotal += scan.pending.length
  return scan.result()
}

/** A folder that was a file when its parent was listed: judged and walked like any folder. */
function raceFolder(ctx: ScanContext, scan: RootScan, key: string, abs: string, st: fs.Stats): void {
  ctx.rules.within(key, true, (excluded) => {
    if (excluded) return
    scan.addStat(key, abs, st)
    scan.folder(key, abs, st, null)
  })
}
