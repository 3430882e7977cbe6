// Retake: the ↺ / R / Retake with… actions, the retake flow's window side, attempts, compare and fork.
// This index is what other features use of it (the only way in: .dependency-cruiser.cjs).
export { RetakeSessionLayer } from './RetakeSessionLayer'
export { useEditRequest } from './edit-request-store'
export { useRetakeContext } from './retake-context'
export type { RetakeContextValue } from './retake-context'
export { useRetakeStore } from './retake-store'
