// Retake: the ↺ / R / Retry with… actions, the retry flow's window side, attempts, compare and fork.
// This index is what other features use of it (the only way in: .dependency-cruiser.cjs).
export { RetrySessionLayer } from './RetrySessionLayer'
export { useEditRequest } from './edit-request-store'
export { useRetryContext } from './retry-context'
export type { RetryContextValue } from './retry-context'
export { useRetryStore } from './retry-store'
