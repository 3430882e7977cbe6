/** The model and agent chosen per session (persisted), keyed `<directory>\n<sessionID or "new">`. */
import { create } from 'zustand'
import { persist, createJSONStorage } from 'zustand/middleware'
import type { ModelRef } from '../../../shared/ipc-contract'

export const choiceKey = (directory: string, sessionID: string | undefined) => `${directory}\n${sessionID ?? 'new'}`

interface ModelChoiceState {
  models: Record<string, ModelRef>
  agents: Record<string, string>
  setModel(key: string, ref: ModelRef): void
  setAgent(key: string, agent: string): void
  /** A new session inherits what was picked before it existed. */
  carryOver(fromKey: string, toKey: string): void
}

export const useModelStore = create<ModelChoiceState>()(
  persist(
    (set) => ({
      models: {},
      agents: {},
      setModel: (key, ref) => set((s) => ({ models: { ...s.models, [key]: ref } })),
      setAgent: (key, agent) => set((s) => ({ agents: { ...s.agents, [key]: agent } })),
      carryOver: (from, to) =>
        set((s) => ({
          models: s.models[from] ? { ...s.models, [to]: s.models[from]! } : s.models,
          agents: s.agents[from] ? { ...s.agents, [to]: s.agents[from]! } : s.agents,
        })),
    }),
    { name: 'retake.models', storage: createJSONStorage(() => localStorage) },
  ),
)
