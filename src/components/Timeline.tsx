/**
 * The message list, virtualized: only rows near the viewport are mounted, each row's height is
 * measured as it renders (streaming rows grow). It sticks to the bottom while new content arrives,
 * unless the user has scrolled up to read.
 */
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { measureElement, useVirtualizer } from '@tanstack/react-virtual'
import { estimateRowHeight, measuredHeight, rememberHeight } from '../lib/row-height'
import type { MessageWithParts } from '../api/types'
import { MessageRow } from './MessageRow'

/** Pixels from the bottom that still count as "at the bottom". */
const STICK_THRESHOLD = 48

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

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    // A row measured before (this session earlier, or another visit) keeps its height; a new one
    // is estimated from its content (row-height.ts), so the scrollbar tells the truth.
    estimateSize: (i) => {
      const m = messages[i]!
      return measuredHeight(m.info.id) ?? estimateRowHeight(m, scrollRef.current?.clientWidth ?? 800)
    },
    measureElement: (el, entry, instance) => {
      const h = measureElement(el, entry, instance)
      const i = Number((el as HTMLElement).dataset.index)
      const m = messages[i]
      // A row still streaming grows: only finished messages' heights are worth remembering.
      if (m && (m.info.role === 'user' || (m.info.role === 'assistant' && m.info.time.completed))) rememberHeight(m.info.id, h)
      return h
    },
    overscan: 6,
    getItemKey: (i) => messages[i]!.info.id,
  })

  // A new session opens at its end.
  useLayoutEffect(() => {
    stick.current = true
    setShowJump(false)
  }, [sessionID])

  const total = virtualizer.getTotalSize()
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
