/**
 * The timeline virtualizer's options: rows sized from what was measured before or estimated from
 * their content, measured as they render, the session opened at its end.
 */
import type { RefObject } from 'react'
import { measureElement, type useVirtualizer, type Virtualizer } from '@tanstack/react-virtual'
import type { MessageWithParts } from '../../api/types'
import { estimateRowHeight, measuredHeight, rememberHeight } from './row-height'

/** What useVirtualizer takes for the timeline's rows. */
type TimelineVirtualizerOptions = Parameters<typeof useVirtualizer<HTMLDivElement, Element>>[0]

type RowMeasure = (el: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>) => number

/** Measures a row, remembers a finished message's height, and reports it to bench:ui when asked. */
function measureRow(messages: MessageWithParts[], width: RefObject<number>): RowMeasure {
  return (el, entry, instance) => {
    const h = measureElement(el, entry, instance)
    const i = Number((el as HTMLElement).dataset.index)
    const m = messages[i]
    // A row still streaming grows: only finished messages' heights are worth remembering.
    if (m && (m.info.role === 'user' || (m.info.role === 'assistant' && m.info.time.completed))) rememberHeight(m.info.id, h)
    // bench:ui asks for each row's estimate against its measured height (only when it set this up).
    const probe = (window as { __retakeRows?: { id: string; estimate: number; measured: number }[] }).__retakeRows
    if (probe && m) probe.push({ id: m.info.id, estimate: estimateRowHeight(m, width.current), measured: h })
    return h
  }
}

/** `width`: the timeline's width, kept by the timeline (reading clientWidth per row forced a layout per row). */
export function timelineVirtualizerOptions(messages: MessageWithParts[], scrollRef: RefObject<HTMLDivElement | null>, width: RefObject<number>): TimelineVirtualizerOptions {
  const sizeOf = (i: number) => {
    const m = messages[i]!
    return measuredHeight(m.info.id) ?? estimateRowHeight(m, width.current)
  }
  return {
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    // A row measured before (this session earlier, or another visit) keeps its height; a new one
    // is estimated from its content (row-height.ts), so the scrollbar tells the truth.
    estimateSize: (i) => sizeOf(i),
    measureElement: measureRow(messages, width),
    // A session opens at its end: the first render lays out the last rows, not the first ones
    // (which would be rendered and measured only to be scrolled away at once).
    initialOffset: () => messages.reduce((sum, _m, i) => sum + sizeOf(i), 0),
    overscan: 6,
    getItemKey: (i) => messages[i]!.info.id,
    // A scroll re-renders in React's own batch, not synchronously inside the scroll event (bench:ui
    // saw 50–110 ms tasks while wheeling through freshly merged older pages with flushSync).
    useFlushSync: false,
  }
}
