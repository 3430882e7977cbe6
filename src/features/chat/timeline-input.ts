/**
 * The timeline's reading rules as pure decisions: which keys it handles itself, and when it follows
 * the end of the conversation (new tokens, new messages) or leaves the reader where they are.
 */
export type TimelineKeyAction = 'home' | 'end' | 'up' | null

/**
 * Home and End mean the session's first and last message, which may not be fetched yet (the native
 * keys would stop at the ends of what is loaded). PageUp and the up arrow scroll natively; they are
 * reported ('up') only so the timeline lets go of the bottom before the first scroll event. Keys
 * typed into a field inside the timeline (editing a message) are the field's, and a modified key
 * (Ctrl+Home, Shift+End: selections, the app's shortcuts) is left alone.
 */
export function timelineKey(key: string, target: HTMLElement | null, modified: boolean): TimelineKeyAction {
  if (modified) return null
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return null
  if (key === 'Home') return 'home'
  if (key === 'End') return 'end'
  if (key === 'PageUp' || key === 'ArrowUp') return 'up'
  return null
}

/**
 * Whether the timeline follows the end after a scroll event. It lets go as soon as the reader moves
 * up (the wheel and the keys let go before this, on the input itself), and comes back only when
 * the reader arrives at the bottom going down. Moving up inside the bottom zone never re-sticks (a
 * small trackpad flick up would otherwise be pulled back by the next token); the view jumping up
 * while stuck (a row at the end re-measured shorter) stays stuck.
 */
export function followAfterScroll(stuck: boolean, atBottom: boolean, movedUp: boolean, own = false): boolean {
  // The timeline moved itself (a page put above the row being read): the reader went nowhere. After
  // Home at the bottom, that move lands at the bottom going down, and used to take the bottom again.
  if (own) return stuck
  if (!atBottom) return false
  return movedUp ? stuck : true
}
