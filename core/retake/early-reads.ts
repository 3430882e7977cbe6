/**
 * Reads a retake needs that can be made before it is decided: the session's status and the
 * message are asked at the click, together with the session's newest messages, instead of one
 * after the other once the payload is saved (each was a round trip on the way to the prompt).
 * Only the first call is answered from the early read; any later one (the verify read after the
 * parts are deleted, the wait for idle after an abort) reads the server afresh.
 */
export function firstFrom<A extends unknown[], T>(early: Promise<T>, read: (...args: A) => Promise<T>, matches: (...args: A) => boolean = () => true) {
  // Asked at the click, awaited only if the flow gets that far: a failure it never awaits is not unhandled.
  early.catch(() => {})
  let used = false
  return (...args: A): Promise<T> => {
    if (used || !matches(...args)) return read(...args)
    used = true
    return early
  }
}
