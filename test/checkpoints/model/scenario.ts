// One seeded scenario against the real engine: a random tree, 1–3 turns, user edits, a restore of the
// last turn judged by the oracle, then its undo judged the same way. Returns the violations found
// (empty = the engine kept every promise) and the log of what happened, for a replay.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openCheckpointStore } from '../../../core/checkpoints/index'
import type { InternalStore } from '../../../core/checkpoints/index'
import type { ApplyResult } from '../../../core/checkpoints/types'
import { crashFor, crashingApply } from './crash'
import { withWrites, writerFor } from './during-apply'
import type { DuringApply } from './during-apply'
import { Gen, OUTSIDE_FILE, rng } from './gen'
import type { Flags } from './gen'
import { ignoredIn, judge } from './oracle'
import { turnOps, userAfter, userDuringTurn, userEditsTurnFile } from './ops'
import { linkRng, namesAndLinks } from './names-links'
import { tagRng, tagSome } from './tags'
import { changedPaths, nodeEq, readTree } from './tree'
import { drawKnowledge, duringTurnRng, namedPaths, toolRng, toolUseOption } from './turn-tools'
import type { TurnTools } from './turn-tools'
import type { Node, Tree } from './tree'

export interface Outcome {
  seed: number
  violations: string[]
  log: string[]
}

export const ALL_FLAGS: (keyof Flags)[] = [
  'oddNames',
  'nonUtf8Names',
  'gitignoreRewrite',
  'userEditDuringTurn',
  'sameSizeSameMtime',
  'userEditBeforeUndo',
  'userTouchesTypeSwap',
  'folderLinkSwap',
  'nonUtf8Names',
  'writeDuringApply',
  'namesAndLinks',
]

/** Classes the engine handles today: on unless the list names them with a minus (-sameSizeSameMtime). */
export const DEFAULT_ON: (keyof Flags)[] = [
  'userEditDuringTurn',
  'sameSizeSameMtime',
  'oddNames',
  'userEditBeforeUndo',
  'gitignoreRewrite',
  'userTouchesTypeSwap',
  'folderLinkSwap',
  'nonUtf8Names',
  'writeDuringApply',
  'namesAndLinks',
]

/** Flags named in a comma list ("all" = every class), e.g. RETAKE_CK_MODEL_FLAGS=oddNames,-sameSizeSameMtime. */
export function parseFlags(list: string | undefined, base: (keyof Flags)[] = DEFAULT_ON): Flags {
  const on = new Set<string>(base)
  for (const f of (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (f === 'all') ALL_FLAGS.forEach((k) => on.add(k))
    else if (f.startsWith('-') && (ALL_FLAGS as string[]).includes(f.slice(1))) on.delete(f.slice(1))
    else if ((ALL_FLAGS as string[]).includes(f)) on.add(f)
    else throw new Error(`unknown model flag ${f} (known: ${ALL_FLAGS.join(', ')}, all)`)
  }
  return Object.fromEntries(ALL_FLAGS.map((k) => [k, on.has(k)])) as unknown as Flags
}

export async function runScenario(seed: number, flags: Flags, base = os.tmpdir()): Promise<Outcome> {
  const dir = fs.mkdtempSync(path.join(base, 'retake-model-'))
  const log: string[] = []
  try {
    return { seed, log, violations: await scenario(seed, flags, dir, log) }
  } catch (err) {
    return { seed, log, violations: [`threw: ${(err as Error).stack ?? String(err)}`] }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function scenario(seed: number, flags: Flags, dir: string, log: string[]): Promise<string[]> {
  const r = rng(seed)
  const ws = path.join(dir, 'ws')
  const outside = path.join(dir, 'outside')
  fs.mkdirSync(ws)
  fs.mkdirSync(outside)
  fs.writeFileSync(path.join(outside, OUTSIDE_FILE), 'outside the root\n')
  const g = new Gen(r, ws, outside, flags)
  g.initialTree()
  const tr = tagRng(seed)
  const tagged = tagSome(tr, ws, readTree(ws), tr.int(4), 'initial')
  if (tagged.length) log.push(tagged.join('; '))
  const lr = linkRng(seed)
  const linked = flags.namesAndLinks ? namesAndLinks(lr, ws, readTree(ws), lr.int(4), 'initial') : []
  if (linked.length) log.push(linked.join('; '))
  const outsideBefore = readTree(outside)
  // Drawn as when it chose between two ways to walk (there is one now): the seeds recorded in
  // model.test.ts replay the same scenarios.
  r.chance(0.3)
  const storeDir = path.join(dir, 'store')
  let store: InternalStore | null = await openCheckpointStore({ storeDir, roots: [{ path: ws }] })
  const violations: string[] = []
  const crash = crashFor(seed)
  /** Apply the plan of `what` here, or in a child killed at the seed's crash point (see model/crash.ts). */
  let during: DuringApply | null = null
  // What each turn's tools named (model/turn-tools.ts), by turn key, as the host tells plan().
  const tools = new Map<string, TurnTools>()
  const apply = async (what: 'turn' | 'undo', id: string): Promise<ApplyResult> => {
    if (crash?.during !== (what === 'turn' ? 'restore' : 'undo')) {
      const plan = what === 'turn' ? await store!.plan({ turnKey: id }, { toolUse: toolUseOption(tools) }) : await store!.planUndo(id)
      // Another process writing while the restore runs (not in a crashing child: its own class).
      if (what === 'turn' && flags.writeDuringApply && !crash) during = writerFor(seed, plan, ws)
      const res = await store!.apply(plan, { onConflict: 'restore-rest' }, what === 'turn' && during ? { onStep: during.onStep } : {})
      if (what === 'turn' && during) log.push(...during.log)
      return res
    }
    await store!.close()
    store = null
    const out = await crashingApply({ storeDir, ws, open: {}, what, id, crash, tools }, log)
    store = out.store
    return out.result
  }
  try {
    const turns = 1 + r.int(3)
    let back = readTree(ws)
    let userDuring = new Map<string, Node>()
    let userEditedTurnFile: string | undefined
    const kr = toolRng(seed)
    const dg = new Gen(duringTurnRng(seed), ws, outside, flags)
    for (let i = 1; i <= turns; i++) {
      back = readTree(ws)
      await store!.capture(`s/m${i}`)
      log.push(
        `turn m${i}: ` +
          [...turnOps(g), ...tagSome(tr, ws, readTree(ws), tr.int(3), 'turn'), ...(flags.namesAndLinks ? namesAndLinks(lr, ws, readTree(ws), lr.int(3), 'turn') : [])].join('; '),
      )
      // Read before the user's writes below: a tool never names the user's files.
      const knowledge = drawKnowledge(kr)
      const byTurn = readTree(ws)
      const named = knowledge === 'unknown' ? [] : namedPaths(ws, back, byTurn)
      tools.set(`s/m${i}`, { knowledge, paths: named })
      log.push(`turn m${i} tools: ${knowledge}${knowledge === 'unknown' ? '' : ` (${named.length} paths named)`}`)
      // In any turn; only the last one's are in the window of the restore (earlier ones are its pre-state).
      if (flags.userEditDuringTurn && dg.r.chance(0.5)) {
        const u = userDuringTurn(dg)
        if (i === turns) userDuring = u.writes
        log.push(...u.log)
      }
      const edit = flags.userEditDuringTurn && dg.r.chance(0.3) ? userEditsTurnFile(dg, changedPaths(back, byTurn)) : null
      if (edit) log.push(edit.log)
      if (edit && i === turns) userEditedTurnFile = edit.path
      await store!.seal(`s/m${i}`)
    }
    const expected = readTree(ws)
    log.push(
      'after seal: ' +
        [
          ...userAfter(g, changedPaths(back, expected), kindChanged(back, expected)),
          ...tagSome(tr, ws, readTree(ws), tr.int(2), 'user', false),
          ...(flags.namesAndLinks ? namesAndLinks(lr, ws, readTree(ws), lr.int(2), 'user') : []),
        ].join('; '),
    )
    const before = readTree(ws)
    const ignored = ignoredIn(back, expected)
    const res = await apply('turn', `s/m${turns}`)
    const after = readTree(ws)
    // Set by apply() above (a closure: not narrowed here).
    const writes = (during as DuringApply | null)?.writes ?? new Map<string, Node>()
    // An opaque or unknown last turn owns its window (docs/checkpoints.md, "Limits"): judge.ts expects
    // the user's writes during it rolled back with the turn.
    const turnOwnsWindow = tools.get(`s/m${turns}`)!.knowledge !== 'known'
    violations.push(
      ...judge({
        label: 'restore',
        back,
        expected,
        before,
        after,
        result: res,
        ignored,
        userWritesDuringTurn: userDuring,
        turnOwnsWindow,
        userEditedTurnFile,
        userDuringApply: writes,
      }),
    )
    if (res.restoreId) {
      if (flags.userEditBeforeUndo) log.push('after restore: ' + userAfter(g, changedPaths(before, after), kindChanged(before, after)).join('; '))
      const beforeUndo = readTree(ws)
      const undo = await apply('undo', res.restoreId)
      // The undo goes back to what the restore started from, with what was written meanwhile
      // (still there as written: a folder the restore made for it stays, reported).
      const from = withWrites(before, writes)
      const stillWritten = new Map([...writes].filter(([p, n]) => nodeEq(beforeUndo.get(p), n)))
      violations.push(
        ...judge({
          label: 'undo',
          back: from,
          expected: after,
          before: beforeUndo,
          after: readTree(ws),
          result: undo,
          ignored: ignoredIn(from, after),
          userDuringApply: stillWritten,
        }),
      )
    }
    const outsideAfter = readTree(outside)
    for (const p of new Set([...outsideBefore.keys(), ...outsideAfter.keys()]))
      if (!nodeEq(outsideBefore.get(p), outsideAfter.get(p))) violations.push(`outside the root: ${p} changed`)
  } finally {
    await store?.close()
  }
  return violations
}

/** Paths present in both trees with a different kind (file, folder, link). */
function kindChanged(from: Tree, to: Tree): string[] {
  return [...to].filter(([p, n]) => from.has(p) && from.get(p)!.t !== n.t).map(([p]) => p)
}
