/** Sanitized markdown with highlighted, copyable code blocks. */
import { memo, useMemo, useSyncExternalStore, type MouseEvent } from 'react'
import { renderBlock, splitBlocks } from './markdown'
import { grammarVersion, subscribeGrammars } from './highlight'
import { useLinkPrompt } from './link-prompt-store'
import { copyText } from '../CopyButton'

/** Every link click (left, middle) is the app's: external links ask first, others do nothing. */
function onLink(e: MouseEvent<HTMLDivElement>): boolean {
  const a = (e.target as HTMLElement).closest('a')
  if (!a) return false
  e.preventDefault()
  const href = a.getAttribute('href')
  if (href && a.hasAttribute('data-external')) useLinkPrompt.getState().ask(href)
  return true
}

function onClick(e: MouseEvent<HTMLDivElement>) {
  // Only Retake adds code blocks and their Copy buttons (markdown.ts): no answer markup keeps a class
  // or a button. Copy first, so a block the model wrapped in a link still copies (and goes nowhere).
  const button = (e.target as HTMLElement).closest('button.copy-code')
  if (!button) return void onLink(e)
  e.preventDefault()
  const code = button.closest('.code-block')?.querySelector('pre')?.textContent ?? ''
  void copyText(code).then((ok) => {
    button.textContent = ok ? 'Copied' : 'Copy failed'
    setTimeout(() => (button.textContent = 'Copy'), 1500)
  })
}

/** One top-level block: re-rendered only when its own text changes (streaming grows the last one). */
const Block = memo(function Block({ raw }: { raw: string }) {
  // A grammar arriving renders the block again: a cache hit unless it was waiting for that grammar.
  const grammars = useSyncExternalStore(subscribeGrammars, grammarVersion)
  // eslint-disable-next-line react-hooks/exhaustive-deps -- grammars: see above
  const html = useMemo(() => renderBlock(raw), [raw, grammars])
  return <div className="markdown-block" dangerouslySetInnerHTML={{ __html: html }} />
})

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => splitBlocks(text), [text])
  return (
    <div className="markdown" onClick={onClick} onAuxClick={onLink}>
      {blocks.map((raw, i) => (
        <Block key={i} raw={raw} />
      ))}
    </div>
  )
})
