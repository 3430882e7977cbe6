// The retake feature as other features see it: what they import of it, and nothing else.
// (Features reach each other only through this file; .dependency-cruiser.cjs checks it.)
export { RetrySessionLayer } from './RetrySessionLayer'
export { useRetryContext } from './retry-context'
export type { RetryContextValue } from './retry-context'
export { useRetryStore } from './retry-store'
