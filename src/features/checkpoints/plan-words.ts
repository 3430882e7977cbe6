/**
 * What the restore sheet says about each file, as pure functions: the two choices in plain words,
 * what the diff shown under a row stands for with the choice selected, the files the turn's tools
 * wrote outside every folder Retake records (they stay as they are), and when there is truly
 * nothing to restore.
 */
import type { MessageWithParts } from '../../api/types'
import type { PlanAction, PlanGroups } from './checkpoint-logic'

/** The row's choice: roll the file back as the plan says, or leave it as it is now. */
export type RowChoice = 'roll-back' | 'keep'

/** What rolling the file back does: put its earlier content back, bring it back, or delete it. */
type RollBack = 'put-back' | 'bring-back' | 'delete'

function rollBackOf(a: Pick<PlanAction, 'kind' | 'existedBefore'>): RollBack {
  if (a.kind === 'delete') return 'delete'
  if (a.kind === 'recreate') return 'bring-back'
  // A conflict rolls back to what was there before the turn: nothing, when the turn created it.
  if (a.kind === 'conflict' && a.existedBefore === false) return 'delete'
  return 'put-back'
}

/** The two options of a row, worded for what each does to this file. */
export function choiceWords(a: Pick<PlanAction, 'kind' | 'existedBefore'>): Record<RowChoice, string> {
  switch (rollBackOf(a)) {
    case 'delete':
      return { 'roll-back': 'Delete it', keep: a.kind === 'conflict' ? 'Keep my version' : 'Keep it' }
    case 'bring-back':
      return { 'roll-back': 'Bring it back', keep: 'Leave it deleted' }
    default:
      return { 'roll-back': 'Put back the version from before the turn', keep: 'Keep my version' }
  }
}

/** The heading of a row's diff: what will be on disk with the choice selected. */
export function diffLabel(a: Pick<PlanAction, 'kind' | 'existedBefore'>, choice: RowChoice): string {
  if (choice === 'keep') return 'Your version now: it stays as it is. How it differs from the version from before the turn:'
  const verb = { 'put-back': 'put it back', 'bring-back': 'bring it back', delete: 'delete it' }[rollBackOf(a)]
  return `If you ${verb}: what changes on disk`
}

/**
 * A unified diff the other way round (the plan's runs from the file now to the one before the
 * turn; a kept file is shown from before the turn to now). Within each run of changed lines the
 * removed ones come first again, as the side-by-side view pairs them.
 */
export function reverseDiff(diff: string): string {
  const out: string[] = []
  let dels: string[] = []
  let adds: string[] = []
  const flush = () => {
    out.push(...dels, ...adds)
    dels = []
    adds = []
  }
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -(\S+) \+(\S+) @@(.*)$/.exec(line)
    if (line.startsWith('--- ')) out.push(`+++ ${line.slice(4)}`)
    else if (line.startsWith('+++ ')) out.push(`--- ${line.slice(4)}`)
    else if (hunk) {
      flush()
      out.push(`@@ -${hunk[2]} +${hunk[1]} @@${hunk[3]}`)
    } else if (line.startsWith('+')) dels.push(`-${line.slice(1)}`)
    else if (line.startsWith('-')) adds.push(`+${line.slice(1)}`)
    else {
      flush()
      out.push(line)
    }
  }
  flush()
  // Headers come in pairs: put --- back before +++.
  for (let i = 0; i + 1 < out.length; i++) {
    if (out[i]!.startsWith('+++ ') && out[i + 1]!.startsWith('--- ')) [out[i], out[i + 1]] = [out[i + 1]!, out[i]!]
  }
  return out.join('\n')
}

const WRITING_TOOLS = new Set(['write', 'edit', 'multiedit', 'patch'])
const trimEnd = (p: string) => p.replace(/[\\/]+$/, '')
const inside = (file: string, folder: string) => file === trimEnd(folder) || file.startsWith(`${trimEnd(folder)}/`)

/** `file` as seen from `directory` (both absolute, '/'-separated): "../outside.txt". */
export function relativeTo(directory: string, file: string): string {
  const from = trimEnd(directory).split('/').filter(Boolean)
  const to = file.split('/').filter(Boolean)
  let same = 0
  while (same < from.length && same < to.length && from[same] === to[same]) same++
  return [...from.slice(same).map(() => '..'), ...to.slice(same)].join('/') || '.'
}

/**
 * Files the rolled-back turns' tools wrote outside the project and every recorded folder (the
 * plan's roots): no checkpoint has them, so they stay as they are. Named relative to the project.
 */
export function outsideWrites(messages: readonly MessageWithParts[] | undefined, turnIDs: readonly string[], directory: string | undefined, roots: readonly string[]): string[] {
  if (!messages || !directory) return []
  const turns = new Set(turnIDs)
  const folders = [directory, ...roots]
  const found = new Set<string>()
  for (const m of messages) {
    if (m.info.role !== 'assistant' || !turns.has(m.info.parentID)) continue
    for (const p of m.parts) {
      if (p.type !== 'tool' || !WRITING_TOOLS.has(p.tool)) continue
      const file = (p.state.input as { filePath?: unknown } | undefined)?.filePath
      if (typeof file !== 'string' || !file.startsWith('/')) continue
      if (!folders.some((f) => inside(file, f))) found.add(relativeTo(directory, file))
    }
  }
  return [...found]
}

/**
 * "Nothing to restore" only when it is true: nothing to write, and no file the turns changed is
 * left out (over the size cap, another session's, outside the project). Otherwise the sheet says
 * that nothing it can restore changed, and the rows below say why each file stays.
 */
export function emptyPlanText(g: PlanGroups, outside: number): string {
  if (g.untouched.length === 0 && outside === 0) return 'Nothing to restore: the files already are as they were before this turn.'
  return 'Nothing Retake can put back: the files below changed, but each stays as it is (see why beside it).'
}
