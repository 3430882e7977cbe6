// verify (fsck): read every blob a checkpoint refers to and check it hashes to its name, check that
// every turn's checkpoints exist, and count what nothing refers to. Repair is conservative: it
// drops only what is provably unreachable (the same mark-and-sweep as retention), and moves a
// damaged loose blob aside (into damaged/, never deleted) so that plans say "cannot restore" up
// front instead of failing half-way through a restore.
import fs from 'node:fs'
import path from 'node:path'
import type { OpenStore } from './open-store'
import { mkdirPrivate } from './fsutil'
import { gc } from './retention'
import type { BlobProblem, VerifyReport } from '../types'

export async function verifyStore(e: OpenStore, repair: boolean): Promise<VerifyReport> {
  return e.exclusive('verify', async () => {
    const refs = e.snaps.blobRefs()
    const missing: BlobProblem[] = []
    const damaged: BlobProblem[] = []
    let checked = 0
    for (const [hash, at] of refs) {
      const problem = { hash, root: at.rootPath, path: at.key }
      if (!e.blobs.has(hash)) missing.push(problem)
      else if (!e.blobs.verify(hash)) damaged.push(problem)
      checked++
      // Long checks must not starve the process (IPC, timers).
      if (checked % 256 === 0) await new Promise((r) => setImmediate(r))
    }
    const brokenTurns = e.records
      .allTurns()
      .filter((t) => !e.snaps.has(t.pre) || (t.post !== null && !e.snaps.has(t.post)))
      .map((t) => `${t.sessionID}/${t.messageID}`)
    let unreachableBlobs = 0
    let unreachableBytes = 0
    for (const [hash, size] of e.blobs.list()) {
      if (refs.has(hash)) continue
      unreachableBlobs++
      unreachableBytes += size
    }
    let repaired: VerifyReport['repaired'] = null
    if (repair) {
      const moved = moveAside(e, damaged)
      repaired = { ...gc(e), damagedMovedAside: moved }
    }
    const ok = missing.length === 0 && damaged.length === 0 && brokenTurns.length === 0
    return { ok, blobsChecked: checked, missing, damaged, brokenTurns, unreachableBlobs, unreachableBytes, warnings: [...e.warnings], repaired }
  })
}

/** Loose damaged blobs go to damaged/ (kept for a human to look at); packed ones stay listed. */
function moveAside(e: OpenStore, damaged: BlobProblem[]): number {
  let n = 0
  const dir = path.join(e.storeDir, 'damaged')
  for (const d of damaged) {
    const file = e.blobs.pathOf(d.hash)
    if (!fs.existsSync(file)) continue
    mkdirPrivate(dir)
    fs.renameSync(file, path.join(dir, d.hash))
    n++
  }
  return n
}
