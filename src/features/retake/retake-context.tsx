/**
 * What the ↺ controls of every message need from the open session, provided once by the chat panel
 * so the timeline rows stay ignorant of retakes.
 */
import { createContext, useContext, type ReactNode } from 'react'
import type { MessageWithParts } from '../../api/types'
import type { ModelOption } from '../models'
import type { FileChoices, ModelRef, SavedRetake } from '../../../shared/ipc-contract'

export interface RetakeContextValue {
  sessionID: string
  /**
   * Every message of the session, reverted ones included (the flow needs the stored turn). A getter,
   * not a value: streamed deltas change the list many times a second, and a context value that
   * changed with it would re-render every message's actions on every delta.
   */
  getMessages(): MessageWithParts[]
  /** The model a retake uses now (the one selected), and its label for the tooltip. */
  model: ModelRef | undefined
  modelLabel: string
  options: ModelOption[]
  /** A turn is streaming: ↺ becomes "Stop and retake". */
  busy: boolean
  /** A retake of this session is running (Send and ↺ are locked). */
  locked: boolean
  /** Makes `ref` the session's model (a retake that runs does this first; "Keep this one" after it continued). */
  chooseModel(ref: ModelRef): void
  /** Runs the retake with `model`, which becomes the session's; resolves when it is over (errors are reported by the provider itself). */
  retake(clickedID: string, model: ModelRef, saved?: SavedRetake, files?: FileChoices, opts?: { skipCheckpoint?: boolean; edit?: string }): Promise<void>
  /** True when the turn (or a later one) changed files: ↺ then opens the restore sheet first. */
  changedFiles(userMessageID: string): boolean
  /** `compare`: the models of "Retake with several models" (the sheet then starts that). */
  openRestoreSheet(clickedID: string, model: ModelRef, edit?: string, compare?: ModelRef[]): void
  /** /rewind: the restore sheet for going back to before the turn (nothing is sent). */
  openRewindSheet(clickedID: string, model: ModelRef): void
  /** Goes back to before the turn (files as chosen) and puts its message in the composer to edit; nothing is sent. */
  rewind(clickedID: string, model: ModelRef, files?: FileChoices): Promise<void>
  /** Retakes the turn on each model in turn (2–3), each run kept as an attempt, then compares them. */
  compare(clickedID: string, models: ModelRef[], files?: FileChoices): Promise<void>
  /** Puts a saved payload's text back into the composer. */
  editSaved(saved: SavedRetake): void
  discardSaved(saved: SavedRetake): void
}

const Ctx = createContext<RetakeContextValue | null>(null)

export function RetakeProvider({ value, children }: { value: RetakeContextValue; children: ReactNode }) {
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>
}

export function useRetakeContext(): RetakeContextValue | null {
  return useContext(Ctx)
}
