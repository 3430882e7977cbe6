// The checkpoints feature as other features see it: what they import of it, and nothing else.
// (Features reach each other only through this file; .dependency-cruiser.cjs checks it.)
export type { RestoreDecision } from './RestoreSheet'
export { TurnChanges } from './TurnChanges'
export { UndoRestoreBar } from './UndoRestoreBar'
export type { RestoreNote } from './UndoRestoreBar'
export { restoreNoteText, turnsWithFileChanges } from './checkpoint-logic'
export type { RestoreCounts } from './checkpoint-logic'
export { addFolder, checkNewFolder, excludesText, parseExcludes, passwordHint, removeFolder, serverPatch, setShared } from './settings-logic'
export { lastRestoreQuery, useApplyRestore, useCaptureProgress, useTurnCheckpoints, useUndoRestore } from './use-checkpoints'
