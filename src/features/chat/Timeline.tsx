/**
 * The message list, virtualized: only rows near the viewport are mounted, each row's height is
 * measured as it renders (streaming rows grow). It sticks to the bottom while new content arrives,
 * unless the user has scrolled up to read. Only the newest messages are fetched at first; nearing
 * the top fetches older ones (src/api/message-window.ts), and the row being read stays in place.
 */
import type { ReactNode } from 'react'
import type { MessageWithParts } from '../../api/types'
import { MessageRow } from './MessageRow'
import { useTimelineScroll } from './use-timeline-scroll'

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
  const { scrollRef, toTop, older, virtualizer, showJump, onScroll, onKeyDown, letGo, toBottom } = useTimelineScroll(sessionID, messages)
  const total = virtualizer.getTotalSize()
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
        // Reachable with Tab, so Home and End (use-timeline-scroll.ts) and native scrolling keys work without a mouse.
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
