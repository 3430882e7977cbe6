// Checkpoints in the window: the restore sheet, the Checkpoints panel, undo of a restore, storage settings.
// This index is what other features use of it (the only way in: .dependency-cruiser.cjs).
export type { RestoreDecision } from './RestoreSheet'
export { TurnChanges } from './TurnChanges'
export { DiffView, ShowChangesToggle } from './DiffView'
export { UndoRestoreBar } from './UndoRestoreBar'
export type { RestoreNote } from './UndoRestoreBar'
export { NOTHING_CHANGED, restoreNoteText, turnsWithFileChanges, undoBarNoteAfter } from './checkpoint-logic'
export type { RestoreCounts } from './checkpoint-logic'
export { addFolder, checkNewFolder, excludesText, parseExcludes, passwordHint, removeFolder, serverPatch, setShared } from './settings-logic'
export { lastRestoreQuery, useApplyRestore, useCaptureProgress, useTurnCheckpoints, useUndoRestore } from './use-checkpoints'
