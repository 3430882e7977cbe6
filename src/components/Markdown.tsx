/** Sanitized markdown with highlighted, copyable code blocks. */
import { memo, useMemo, type MouseEvent } from 'react'
import { renderMarkdown } from '../lib/markdown'
import { copyText } from './CopyButton'

function onClick(e: MouseEvent<HTMLDivElement>) {
  const button = (e.target as HTMLElement).closest('button.copy-code')
  if (!button) return
  const code = button.closest('.code-block')?.querySelector('pre')?.textContent ?? ''
  void copyText(code).then((ok) => {
    button.textContent = ok ? 'Copied' : 'Copy failed'
    setTimeout(() => (button.textContent = 'Copy'), 1500)
  })
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text])
  return <div className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
})
