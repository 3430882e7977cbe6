/**
 * How the timeline scrolls: it sticks to the bottom while new content arrives unless the reader
 * scrolled up, goes back to the bottom when the user sends (and follows the answer from there),
 * keeps the row being read in place when older messages are put above it, and takes Home and End
 * to the session's real ends.
 */
import { useLayoutEffect, useRef, useState, type Dispatch, type KeyboardEvent, type MutableRefObject, type RefObject, type SetStateAction } from 'react'
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual'
import type { MessageWithParts } from '../../api/types'
import { useOlderMessages } from '../../api/message-window'
import { followAfterScroll, timelineKey } from './timeline-input'
import { timelineVirtualizerOptions } from './timeline-virtualizer'
import { usePendingSendStore } from './pending-send-store'

/** Pixels from the bottom that still count as "at the bottom". */
const STICK_THRESHOLD = 48
/**
 * Older messages are asked for when the reader is this many screens from the top: a page is ~100
 * turns (tens of screens), and a fast wheel covers three screens before the page arrives.
 */
const PREFETCH_SCREENS = 12

export function useTimelineScroll(sessionID: string | undefined, messages: MessageWithParts[]) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  const [showJump, setShowJump] = useState(false)
  const older = useOlderMessages(sessionID)
  // The first row on screen when older messages were asked for, and its distance from the top.
  const anchor = useRef<{ id: string; offset: number } | null>(null)
  // Home was pressed: older pages are coming in, and the view goes to the top once they all have.
  const toTop = useRef(false)
  const lastTop = useRef(0)
  // A scrollTop the timeline set itself (keeping the row being read in place): its scroll event is
  // not the reader arriving anywhere, so it must not take the bottom again.
  const ownScroll = useRef<number | null>(null)

  // The timeline's width, kept here: the virtualizer asks for every row's size each time a row is
  // measured, and reading clientWidth there forced a layout per row (the long tasks of a fast
  // scroll up through 2,000 rows).
  const width = useRef(800)
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (!el) return
    width.current = el.clientWidth || 800
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(() => (width.current = el.clientWidth || width.current))
    ro.observe(el)
    return () => ro.disconnect()
  }, [])
  const virtualizer = useVirtualizer(timelineVirtualizerOptions(messages, scrollRef, width))

  // A new session opens at its end.
  useLayoutEffect(() => {
    stick.current = true
    setShowJump(false)
  }, [sessionID])

  const firstId = messages[0]?.info.id
  // Older rows were put above: scroll by their height so the row being read does not move.
  useLayoutEffect(() => {
    keepReadRowInPlace({ scrollRef, stick, anchor, toTop, ownScroll, virtualizer, hasOlder: older.hasOlder })
  }, [firstId, virtualizer, older.hasOlder])
  // After every render (new rows, a streamed token, a row re-measured): follow the end if stuck to it.
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  })

  // A message just sent (its id, until the server has it): whoever sends wants to see it and the
  // answer, even after scrolling up to read — the view goes to the end and sticks there.
  const sentID = usePendingSendStore((s) => (sessionID ? s.pending[sessionID]?.messageID : undefined))
  useLayoutEffect(() => {
    if (!sentID) return
    toTop.current = false
    stick.current = true
    setShowJump(false)
    const el = scrollRef.current
    if (el) el.scrollTop = el.scrollHeight
  }, [sentID])

  const scroll: TimelineScrollState = { scrollRef, stick, older, anchor, toTop, lastTop, ownScroll, virtualizer, setShowJump }
  return { ...scroll, showJump, ...timelineControls(scroll) }
}

interface TimelineScrollState {
  scrollRef: RefObject<HTMLDivElement | null>
  stick: MutableRefObject<boolean>
  older: ReturnType<typeof useOlderMessages>
  anchor: MutableRefObject<{ id: string; offset: number } | null>
  toTop: MutableRefObject<boolean>
  lastTop: MutableRefObject<number>
  ownScroll: MutableRefObject<number | null>
  virtualizer: Virtualizer<HTMLDivElement, Element>
  setShowJump: Dispatch<SetStateAction<boolean>>
}

/**
 * After older rows were put above: scrolls by their height so the row being read (the anchor)
 * does not move, or to the top once Home's pages are all in.
 */
function keepReadRowInPlace(s: Pick<TimelineScrollState, 'scrollRef' | 'stick' | 'anchor' | 'toTop' | 'ownScroll' | 'virtualizer'> & { hasOlder: boolean }) {
  const { scrollRef, stick, anchor, toTop, ownScroll, virtualizer } = s
  const el = scrollRef.current
  if (!el) return
  if (toTop.current && !s.hasOlder) {
    toTop.current = false
    anchor.current = null
    el.scrollTop = 0
    return
  }
  const a = anchor.current
  if (!a || stick.current) return
  const row = virtualizer.measurementsCache.find((m) => m.key === a.id)
  if (!row || row.index === 0) return
  // After Home the row stays put through every page until the session is whole (each page's
  // first rows, shown at the top, would be rendered only to be pushed down by the next page).
  if (!toTop.current) anchor.current = null
  el.scrollTop = row.start - a.offset
  ownScroll.current = el.scrollTop
}

/** What the reader's scrolling, wheel and keys do (see the file's comment). */
function timelineControls(s: TimelineScrollState) {
  const { scrollRef, stick, older, anchor, toTop, virtualizer, setShowJump } = s
  const onScroll = () => {
    const el = scrollRef.current
    if (!el) return
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD
    stick.current = followAfterScroll(stick.current, atBottom, el.scrollTop < s.lastTop.current, s.ownScroll.current === el.scrollTop)
    s.ownScroll.current = null
    s.lastTop.current = el.scrollTop
    setShowJump(!stick.current)
    if (older.hasOlder && !toTop.current && el.scrollTop < el.clientHeight * PREFETCH_SCREENS) {
      const first = virtualizer.getVirtualItems().find((i) => i.end > el.scrollTop)
      if (first) anchor.current = { id: String(first.key), offset: first.start - el.scrollTop }
      void older.loadOlder()
    }
  }

  const letGo = () => {
    stick.current = false
    setShowJump(true)
  }

  const toBottom = () => {
    toTop.current = false
    stick.current = true
    setShowJump(false)
    const el = scrollRef.current
    if (el) el.scrollTop = el.scrollHeight
  }

  // Home and End go to the session's real ends, not the ends of the rows fetched so far; PageUp,
  // PageDown and the arrows scroll natively (and let go of the bottom through onScroll).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const action = timelineKey(e.key, e.target as HTMLElement, e.ctrlKey || e.metaKey || e.altKey || e.shiftKey)
    if (!action) return
    if (action === 'up') return letGo()
    e.preventDefault()
    if (action === 'end') return toBottom()
    const el = scrollRef.current
    if (!el) return
    letGo()
    if (!older.hasOlder) {
      el.scrollTop = 0
      return
    }
    toTop.current = true
    const first = virtualizer.getVirtualItems().find((i) => i.end > el.scrollTop)
    anchor.current = first ? { id: String(first.key), offset: first.start - el.scrollTop } : null
    void older.loadAll()
  }

  return { onScroll, letGo, toBottom, onKeyDown }
}
