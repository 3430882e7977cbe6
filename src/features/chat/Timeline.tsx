/**
 * The message list, virtualized: only rows near the viewport are mounted, each row's height is
 * measured as it renders (streaming rows grow). It sticks to the bottom while new content arrives,
 * unless the user has scrolled up to read. Only the newest messages are fetched at first; nearing
 * the top fetches older ones (src/api/message-window.ts), and the row being read stays in place.
 */
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { measureElement, useVirtualizer } from '@tanstack/react-virtual'
import { estimateRowHeight, measuredHeight, rememberHeight } from './row-height'
import { followAfterScroll, timelineKey } from './timeline-input'
import type { MessageWithParts } from '../../api/types'
import { useOlderMessages } from '../../api/message-window'
import { MessageRow } from './MessageRow'

/** Pixels from the bottom that still count as "at the bottom". */
const STICK_THRESHOLD = 48
/**
 * Older messages are asked for when the reader is this many screens from the top: a page is ~100
 * turns (tens of screens), and a fast wheel covers three screens before the page arrives.
 */
const PREFETCH_SCREENS = 12

export function Timeline({
  sessionID,
  messages,
  footer,
  empty,
}: {
  sessionID: string | undefined
  messages: MessageWithParts[]
  /** Rendered after the last message (e.g. the session error banner). */
  footer?: ReactNode
  empty?: ReactNode
}) {
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
  const sizeOf = (i: number) => {
    const m = messages[i]!
    return measuredHeight(m.info.id) ?? estimateRowHeight(m, width.current)
  }
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    // A row measured before (this session earlier, or another visit) keeps its height; a new one
    // is estimated from its content (row-height.ts), so the scrollbar tells the truth.
    estimateSize: (i) => sizeOf(i),
    measureElement: (el, entry, instance) => {
      const h = measureElement(el, entry, instance)
      const i = Number((el as HTMLElement).dataset.index)
      const m = messages[i]
      // A row still streaming grows: only finished messages' heights are worth remembering.
      if (m && (m.info.role === 'user' || (m.info.role === 'assistant' && m.info.time.completed))) rememberHeight(m.info.id, h)
      // bench:ui asks for each row's estimate against its measured height (only when it set this up).
      const probe = (window as { __retakeRows?: { id: string; estimate: number; measured: number }[] }).__retakeRows
      if (probe && m) probe.push({ id: m.info.id, estimate: estimateRowHeight(m, width.current), measured: h })
      return h
    },
    // A session opens at its end: the first render lays out the last rows, not the first ones
    // (which would be rendered and measured only to be scrolled away at once).
    initialOffset: () => messages.reduce((sum, _m, i) => sum + sizeOf(i), 0),
    overscan: 6,
    getItemKey: (i) => messages[i]!.info.id,
    // A scroll re-renders in React's own batch, not synchronously inside the scroll event (bench:ui
    // saw 50–110 ms tasks while wheeling through freshly merged older pages with flushSync).
    useFlushSync: false,
  })

  // A new session opens at its end.
  useLayoutEffect(() => {
    stick.current = true
    setShowJump(false)
  }, [sessionID])

  const total = virtualizer.getTotalSize()
  const firstId = messages[0]?.info.id
  // Older rows were put above: scroll by their height so the row being read does not move.
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (!el) return
    if (toTop.current && !older.hasOlder) {
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
  }, [firstId, virtualizer, older.hasOlder])
  // After every render (new rows, a streamed token, a row re-measured): follow the end if stuck to it.
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  })

  const onScroll = () => {
    const el = scrollRef.current
    if (!el) return
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD
    stick.current = followAfterScroll(stick.current, atBottom, el.scrollTop < lastTop.current, ownScroll.current === el.scrollTop)
    ownScroll.current = null
    lastTop.current = el.scrollTop
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

  const items = virtualizer.getVirtualItems()
  return (
    <div className="timeline-wrap">
      <div
        className="timeline"
        ref={scrollRef}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        // The user's own wheel or drag takes over from Home's "stay at the top".
        onWheel={(e) => {
          toTop.current = false
          if (e.deltaY < 0) letGo()
        }}
        onPointerDown={() => (toTop.current = false)}
        data-testid="timeline"
        data-has-older={older.hasOlder}
        role="region"
        aria-label="Conversation"
        // Reachable with Tab, so the keys above (and native scrolling keys) work without a mouse.
        tabIndex={0}
      >
        {messages.length === 0 && empty}
        <div className="timeline-inner" style={{ height: total }}>
          <div className="timeline-rows" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
            {items.map((item) => {
              const m = messages[item.index]!
              const prev = messages[item.index - 1]
              const continued = m.info.role === 'assistant' && prev?.info.role === 'assistant'
              return (
                <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="timeline-row">
                  <MessageRow message={m} continued={continued} />
                </div>
              )
            })}
          </div>
        </div>
        {footer}
      </div>
      {showJump && (
        <button type="button" className="jump-bottom" data-testid="jump-to-bottom" onClick={toBottom}>
          ↓ Latest
        </button>
      )}
    </div>
  )
}
