/**
 * The completion popup of the composer: matching commands (then models or turns) while a slash
 * command is typed. ↑/↓ move, Tab completes, Enter picks (runs a complete command), Esc closes it
 * until the draft changes. Returns what the Composer needs: the popup, a key handler that runs
 * before its own, and the ARIA attributes tying the text box to the list.
 */
import { useId, useMemo, useState, type KeyboardEvent, type ReactNode, type TextareaHTMLAttributes } from 'react'
import { completions, type CompletionData, type CompletionItem } from './slash-commands'

export interface ComposerAssist {
  popup: ReactNode
  /** What the last command did (or why it could not): shown above the box, in the page's flow. */
  notice?: ReactNode
  /** True when the key was the popup's (the composer then does nothing more with it). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean
  inputProps: Pick<TextareaHTMLAttributes<HTMLTextAreaElement>, 'aria-autocomplete' | 'aria-controls' | 'aria-activedescendant' | 'onSelect'>
}

const optionIdOf = (listId: string, i: number) => `${listId}-${i}`

export function useSlashMenu(opts: {
  draft: string
  data: CompletionData
  onChange(text: string): void
  /** Runs a complete command (the popup's Enter on a runnable item). */
  onRun(text: string): void
  /** Shown under the popup: what the last command did, or why it could not. */
  notice?: ReactNode
  /** Items that take the place of the commands' (an `@` mention being typed), and the list's name. */
  items?: CompletionItem[] | null
  label?: string
  /** Told which item was chosen (Tab or Enter or a click), before the draft changes. */
  onPick?(item: CompletionItem): void
  /** The caret moved in the box (typing, clicks, arrows). */
  onCaret?(caret: number): void
}): ComposerAssist {
  const { draft, data, onChange, onRun } = opts
  const listId = useId()
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState<string | null>(null)
  const commandItems = useMemo(() => completions(draft, data), [draft, data])
  const items = opts.items ?? commandItems
  const open = items.length > 0 && dismissed !== draft
  const index = Math.min(active, Math.max(0, items.length - 1))

  const pick = (item: CompletionItem) => {
    setActive(0)
    opts.onPick?.(item)
    if (item.run) onRun(item.text)
    else onChange(item.text)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || e.nativeEvent.isComposing) return false
    const move = (d: number) => setActive((index + d + items.length) % items.length)
    if (e.key === 'ArrowDown') move(1)
    else if (e.key === 'ArrowUp') move(-1)
    else if (e.key === 'Tab' && !e.shiftKey) {
      setActive(0)
      opts.onPick?.(items[index]!)
      onChange(items[index]!.text)
    } else if (e.key === 'Enter' && !e.shiftKey) pick(items[index]!)
    // Esc closes the popup only (it must not also stop a running turn: default prevented).
    else if (e.key === 'Escape') setDismissed(draft)
    else return false
    e.preventDefault()
    return true
  }

  const popup = <>{open && <SlashList listId={listId} label={opts.label ?? 'Commands'} items={items} index={index} onHover={setActive} onPick={pick} />}</>
  return {
    popup,
    notice: opts.notice,
    onKeyDown,
    inputProps: {
      'aria-autocomplete': 'list',
      'aria-controls': open ? listId : undefined,
      'aria-activedescendant': open ? optionIdOf(listId, index) : undefined,
      onSelect: opts.onCaret ? (e) => opts.onCaret!(e.currentTarget.selectionStart) : undefined,
    },
  }
}

function SlashList(p: { listId: string; label: string; items: CompletionItem[]; index: number; onHover(i: number): void; onPick(item: CompletionItem): void }) {
  const { listId, index } = p
  return (
    <ul className="slash-menu" role="listbox" id={listId} aria-label={p.label} data-testid="slash-menu">
      {p.items.map((item, i) => (
        <li
          key={item.id}
          id={optionIdOf(listId, i)}
          role="option"
          aria-selected={i === index}
          className={`slash-item${i === index ? ' active' : ''}`}
          data-testid="slash-item"
          // Keeps the focus in the text box (a click would otherwise blur it first).
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => p.onHover(i)}
          onClick={() => p.onPick(item)}
        >
          <span className="slash-label">{item.label}</span>
          {item.detail && <span className="slash-detail">{item.detail}</span>}
        </li>
      ))}
    </ul>
  )
}
