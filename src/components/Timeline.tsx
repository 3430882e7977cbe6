/**
 * The message list, virtualized: only rows near the viewport are mounted, each row's height is
 * measured as it renders (streaming rows grow). It sticks to the bottom while new content arrives,
 * unless the user has scrolled up to read. Only the newest messages are fetched at first; nearing
 * the top fetches older ones (src/api/message-window.ts), and the row being read stays in place.
 */
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { measureElement, useVirtualizer } from '@tanstack/react-virtual'
import { estimateRowHeight, measuredHeight, rememberHeight } from '../lib/row-height'
import type { MessageWithParts } from '../api/types'
import { useOlderMessages } from '../api/message-window'
import { MessageRow } from './MessageRow'

/** Pixels from the bottom that still count as "at the bottom". */
const STICK_THRESHOLD = 48
/** Older messages are asked for when the reader is this many screens from the top. */
const PREFETCH_SCREENS = 3

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

  const sizeOf = (i: number) => {
    const m = messages[i]!
    return measuredHeight(m.info.id) ?? estimateRowHeight(m, scrollRef.current?.clientWidth ?? 800)
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
      return h
    },
    // A session opens at its end: the first render lays out the last rows, not the first ones
    // (which would be rendered and measured only to be scrolled away at once).
    initialOffset: () => messages.reduce((sum, _m, i) => sum + sizeOf(i), 0),
    overscan: 6,
    getItemKey: (i) => messages[i]!.info.id,
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
    const a = anchor.current
    if (!el || !a || stick.current) return
    const row = virtualizer.measurementsCache.find((m) => m.key === a.id)
    if (!row || row.index === 0) return
    anchor.current = null
    el.scrollTop = row.start - a.offset
  }, [firstId, virtualizer])
  // After every render (new rows, a streamed token, a row re-measured): follow the end if stuck to it.
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  })

  const onScroll = () => {
    const el = scrollRef.current
    if (!el) return
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD
    stick.current = atBottom
    setShowJump(!atBottom)
    if (older.hasOlder && el.scrollTop < el.clientHeight * PREFETCH_SCREENS) {
      const first = virtualizer.getVirtualItems().find((i) => i.end > el.scrollTop)
      if (first) anchor.current = { id: String(first.key), offset: first.start - el.scrollTop }
      older.loadOlder()
    }
  }

  const items = virtualizer.getVirtualItems()
  return (
    <div className="timeline-wrap">
      <div className="timeline" ref={scrollRef} onScroll={onScroll} data-testid="timeline" role="region" aria-label="Conversation" tabIndex={-1}>
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
        <button
          type="button"
          className="jump-bottom"
          data-testid="jump-to-bottom"
          onClick={() => {
            stick.current = true
            setShowJump(false)
            const el = scrollRef.current
            if (el) el.scrollTop = el.scrollHeight
          }}
        >
          ↓ Latest
        </button>
      )}
    </div>
  )
}
