// What each turn's tools named, as the app tells the engine (core/turns/turn-tools.ts read from
// opencode's messages, handed to `plan(target, { toolUse })` by core/checkpoint-service.ts): the
// absolute paths its file tools wrote, created, deleted or moved (both sides), or "opaque" when it
// ran a shell, or nothing at all when the host could not learn it (unknown). The model's turns act
// on the disk directly, so what they named is read back as the tree difference of the turn's own
// operations, taken before the user's writes during the turn: the user's files are never named.
// A turn's kind (known, opaque, unknown) and the user's writes during it are drawn on streams of
// their own, so the seeds recorded in model.test.ts replay the rest of their scenarios as before.
import path from 'node:path'
import type { ToolUseLookup, TurnKey, TurnToolUse } from '../../../core/checkpoints/index'
import { rng, type Rng } from './gen'
import { changedPaths, engineName, keyName, type Tree } from './tree'

/** known: every file tool named its paths; opaque: a shell ran too; unknown: no record (a remote server, an old turn). */
export type ToolKnowledge = 'known' | 'opaque' | 'unknown'

/** The stream that draws each turn's kind of tool knowledge. */
export const toolRng = (seed: number): Rng => rng((seed * 2246822519 + 0x7001) >>> 0)
/** The stream of the user's writes during a turn (model/ops.ts userDuringTurn). */
export const duringTurnRng = (seed: number): Rng => rng((seed * 3266489917 + 0xd071) >>> 0)

/** Share of turns that ran a shell, and of turns whose tool use the host never learned. */
export const OPAQUE_SHARE = 0.25
export const UNKNOWN_SHARE = 0.15

export function drawKnowledge(r: Rng): ToolKnowledge {
  const x = r.next()
  return x < OPAQUE_SHARE ? 'opaque' : x < OPAQUE_SHARE + UNKNOWN_SHARE ? 'unknown' : 'known'
}

/**
 * The absolute paths the turn's tools named: every path whose node differs between the tree at the
 * capture and the tree after the turn's own operations (a rename names both sides; a deleted folder
 * and what was in it; a folder made for a new file). Each in the engine's key form as written and
 * in NFC, as a tool may have spelled it either way.
 */
export function namedPaths(ws: string, atCapture: Tree, afterTurn: Tree): string[] {
  const out = new Set<string>()
  for (const rel of changedPaths(atCapture, afterTurn)) for (const n of [keyName(rel), engineName(rel)]) out.add(path.join(ws, n))
  return [...out]
}

/** A turn's tool use as the host reports it (undefined: unknown). */
export interface TurnTools {
  knowledge: ToolKnowledge
  paths: string[]
}

export function toolUseOf(t: TurnTools): TurnToolUse | undefined {
  return t.knowledge === 'unknown' ? undefined : { paths: new Set(t.paths), opaque: t.knowledge === 'opaque' }
}

/** The `toolUse` option of plan(), per turn key, as core/checkpoint-service.ts builds it. */
export function toolUseOption(byTurn: ReadonlyMap<string, TurnTools>): (turns: TurnKey[]) => Promise<ToolUseLookup> {
  return async () => (turn) => {
    const t = byTurn.get(`${turn.sessionID}/${turn.messageID}`)
    return t && toolUseOf(t)
  }
}

/** For a crash child (model/crash.ts): the same, as JSON on its command line. */
export const toolUseJson = (byTurn: ReadonlyMap<string, TurnTools>): string => JSON.stringify(Object.fromEntries(byTurn))
export const toolUseFromJson = (json: string): Map<string, TurnTools> => new Map(Object.entries(JSON.parse(json) as Record<string, TurnTools>))
