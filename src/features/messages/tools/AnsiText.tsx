/**
 * Terminal output with its colours: each styled run is a text node in a span (never HTML), basic
 * colours by class (CSS tokens, dark mode), palette/true colours as validated inline colours.
 * Very long output keeps its end, where errors and summaries usually are.
 */
import { memo, useMemo, type CSSProperties } from 'react'
import { parseAnsi, type AnsiStyle } from '../ansi'

const MAX_LINES = 2000

function classOf(s: AnsiStyle): string {
  const c: string[] = []
  if (s.fg && !s.fg.startsWith('rgb')) c.push(`ansi-fg-${s.fg}`)
  if (s.bg && !s.bg.startsWith('rgb')) c.push(`ansi-bg-${s.bg}`)
  if (s.bold) c.push('ansi-bold')
  if (s.dim) c.push('ansi-dim')
  if (s.italic) c.push('ansi-italic')
  if (s.underline) c.push('ansi-underline')
  return c.join(' ')
}

function styleOf(s: AnsiStyle): CSSProperties | undefined {
  const fg = s.fg?.startsWith('rgb') ? s.fg : undefined
  const bg = s.bg?.startsWith('rgb') ? s.bg : undefined
  return fg || bg ? { color: fg, backgroundColor: bg } : undefined
}

export const AnsiText = memo(function AnsiText({ text, testId }: { text: string; testId?: string }) {
  const { segments, hidden } = useMemo(() => {
    const lines = text.split('\n')
    const hiddenCount = Math.max(0, lines.length - MAX_LINES)
    const shown = hiddenCount ? lines.slice(hiddenCount).join('\n') : text
    return { segments: parseAnsi(shown), hidden: hiddenCount }
  }, [text])
  return (
    <pre className="tool-pre ansi" data-testid={testId}>
      {hidden > 0 && <span className="muted">{`… ${hidden} earlier lines not shown (Raw has all)\n`}</span>}
      {segments.map((s, i) => {
        const className = classOf(s.style)
        const style = styleOf(s.style)
        return className || style ? (
          <span key={i} className={className || undefined} style={style}>
            {s.text}
          </span>
        ) : (
          s.text
        )
      })}
    </pre>
  )
})
