import { describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { Composer } from '../../../src/features/chat/Composer'
import { ShortcutsSheet } from '../../../src/features/palette/ShortcutsKey'
import { completions, findModel, parseDraft } from '../../../src/features/chat/slash-commands'
import { useSlashMenu } from '../../../src/features/chat/use-slash-menu'

const data = {
  models: [
    { key: 'fake/echo', label: 'Echo' },
    { key: 'fake/echo-2', label: 'Echo 2' },
  ],
  turns: [{ text: 'first question' }, { text: 'second question' }],
}

/** The composer with the popup, as the chat panel wires it: picking a runnable item runs it. */
function Harness({ onRun, onSend }: { onRun(text: string): void; onSend(text: string): void }) {
  const [value, setValue] = useState('')
  const assist = useSlashMenu({ draft: value, data, onChange: setValue, onRun: (t) => (onRun(t), setValue('')) })
  return <Composer value={value} onChange={setValue} onSend={() => onSend(value)} onStop={() => {}} busy={false} assist={assist} />
}

function setup() {
  const onRun = vi.fn()
  const onSend = vi.fn()
  render(<Harness onRun={onRun} onSend={onSend} />)
  return { onRun, onSend, box: screen.getByTestId('composer') }
}

const labels = () => screen.getAllByRole('option').map((o) => o.textContent)

describe('slash commands: what a draft means', () => {
  it('parses commands, unknown commands, paths and the // escape', () => {
    expect(parseDraft('/retake')).toEqual({ kind: 'command', name: 'retake', arg: '' })
    expect(parseDraft('/retake fake/echo-2 ')).toEqual({ kind: 'command', name: 'retake', arg: 'fake/echo-2' })
    // Its name before: what users typed still retakes, and is never sent as text.
    expect(parseDraft('/retry fake/echo-2')).toEqual({ kind: 'command', name: 'retake', arg: 'fake/echo-2' })
    expect(parseDraft('/toString')).toEqual({ kind: 'unknown', name: 'tostring' })
    expect(parseDraft('/Rewind 2')).toEqual({ kind: 'command', name: 'rewind', arg: '2' })
    expect(parseDraft('/frobnicate')).toEqual({ kind: 'unknown', name: 'frobnicate' })
    expect(parseDraft('/usr/bin/env is missing')).toEqual({ kind: 'text', text: '/usr/bin/env is missing' })
    expect(parseDraft('//retake is a word')).toEqual({ kind: 'text', text: '/retake is a word' })
    expect(parseDraft('please /retake')).toEqual({ kind: 'text', text: 'please /retake' })
  })

  it('completes command names, then models for /retake and turns for /rewind', () => {
    expect(completions('/', data).map((i) => i.label)).toEqual(['/retake [model]', '/rewind [turn]', '/undo'])
    expect(completions('/re', data).map((i) => i.text)).toEqual(['/retake', '/rewind '])
    expect(completions('/retake 2', data).map((i) => i.text)).toEqual(['/retake fake/echo-2'])
    expect(completions('/rewind sec', data).map((i) => i.label)).toEqual(['2. second question'])
    expect(completions('hello', data)).toEqual([])
    expect(completions('/retake x\nmore', data)).toEqual([])
  })

  it('opencode’s commands: parsed with their words, listed after Retake’s with their descriptions', () => {
    const commands = [
      { name: 'init', description: 'create/update AGENTS.md', hints: [] },
      { name: 'review', description: 'review changes', hints: ['$ARGUMENTS'] },
      { name: 'undo', description: 'a server command named like one of Retake’s' },
      { name: 'team/lint', description: 'a command in a folder' },
    ]
    expect(parseDraft('/init', commands)).toEqual({ kind: 'opencode', name: 'init', arg: '' })
    expect(parseDraft('/review the last commit ', commands)).toEqual({ kind: 'opencode', name: 'review', arg: 'the last commit' })
    expect(parseDraft('/team/lint', commands)).toEqual({ kind: 'opencode', name: 'team/lint', arg: '' })
    // Retake's own keep their meaning; an unknown name stays unknown; // still escapes.
    expect(parseDraft('/undo', commands)).toEqual({ kind: 'command', name: 'undo', arg: '' })
    expect(parseDraft('/inits', commands)).toEqual({ kind: 'unknown', name: 'inits' })
    expect(parseDraft('//init', commands)).toEqual({ kind: 'text', text: '/init' })
    const withCommands = { ...data, commands }
    expect(completions('/', withCommands).map((i) => [i.label, i.detail])).toEqual([
      ['/retake [model]', expect.any(String)],
      ['/rewind [turn]', expect.any(String)],
      ['/undo', expect.any(String)],
      ['/init', 'create/update AGENTS.md'],
      ['/review …', 'review changes'],
      ['/team/lint', 'a command in a folder'],
    ])
    // One that takes words is completed to type them; one that takes none runs at once.
    expect(completions('/rev', withCommands).map((i) => [i.text, i.run])).toEqual([['/review ', false]])
    expect(completions('/in', withCommands).map((i) => [i.text, i.run])).toEqual([['/init', true]])
  })

  it('finds the model a /retake names', () => {
    expect(findModel(data.models, 'echo-2')?.key).toBe('fake/echo-2')
    expect(findModel(data.models, 'fake/echo')?.key).toBe('fake/echo')
    expect(findModel(data.models, 'echo')?.key).toBe('fake/echo')
    expect(findModel(data.models, 'ech')).toBeUndefined()
  })
})

describe('slash command popup in the composer', () => {
  it('opens on / and narrows as you type', async () => {
    const { box } = setup()
    expect(screen.queryByRole('listbox')).toBeNull()
    await userEvent.type(box, '/')
    expect(screen.getByRole('listbox', { name: 'Commands' })).toBeInTheDocument()
    expect(labels()).toHaveLength(3)
    expect(box).toHaveAttribute('aria-activedescendant', screen.getAllByRole('option')[0]!.id)
    await userEvent.type(box, 'u')
    expect(labels()).toEqual(['/undoUndo the last file restore'])
    await userEvent.type(box, 'x')
    expect(screen.queryByRole('listbox')).toBeNull()
  })

  it('↑/↓ move the selection, Tab completes, Enter runs a complete command and sends nothing', async () => {
    const { box, onRun, onSend } = setup()
    await userEvent.type(box, '/re')
    const options = () => screen.getAllByRole('option')
    expect(options()[0]).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{ArrowDown}')
    expect(options()[1]).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{ArrowDown}')
    expect(options()[0]).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{ArrowUp}')
    expect(options()[1]).toHaveAttribute('aria-selected', 'true')
    // Tab completes /rewind, which then lists the turns.
    await userEvent.keyboard('{Tab}')
    expect(box).toHaveValue('/rewind ')
    expect(labels()).toEqual(['1. first question', '2. second question'])
    await userEvent.keyboard('{ArrowDown}{Enter}')
    expect(onRun).toHaveBeenCalledWith('/rewind 2')
    expect(onSend).not.toHaveBeenCalled()
  })

  it('Enter on /retake runs it; on /retake with a model, runs it with that model', async () => {
    const { box, onRun } = setup()
    await userEvent.type(box, '/retake{Enter}')
    expect(onRun).toHaveBeenLastCalledWith('/retake')
    await userEvent.type(box, '/retake echo-2{Enter}')
    expect(onRun).toHaveBeenLastCalledWith('/retake fake/echo-2')
  })

  it('Esc closes the popup (and is not left to stop a turn); typing opens it again', async () => {
    const { box } = setup()
    const escapes = vi.fn()
    // What the chat's "Esc stops the turn" listener sees.
    const listener = (e: KeyboardEvent) => e.key === 'Escape' && !e.defaultPrevented && escapes()
    window.addEventListener('keydown', listener)
    await userEvent.type(box, '/r')
    expect(screen.getByRole('listbox')).toBeInTheDocument()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(escapes).not.toHaveBeenCalled()
    await userEvent.type(box, 'e')
    expect(screen.getByRole('listbox')).toBeInTheDocument()
    window.removeEventListener('keydown', listener)
  })

  it('a click on an option picks it and keeps the focus in the box', async () => {
    const { box, onRun } = setup()
    await userEvent.type(box, '/')
    await userEvent.click(screen.getByRole('option', { name: /\/undo/ }))
    expect(onRun).toHaveBeenCalledWith('/undo')
    expect(box).toHaveFocus()
  })
})

describe('shortcuts sheet', () => {
  it('opens on ? outside a text field, lists the keys and commands, closes on Esc', async () => {
    render(
      <>
        <textarea aria-label="typing" />
        <button type="button">elsewhere</button>
        <ShortcutsSheet />
      </>,
    )
    await userEvent.type(screen.getByLabelText('typing'), '?')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByLabelText('typing')).toHaveValue('?')
    screen.getByRole('button', { name: 'elsewhere' }).focus()
    await userEvent.keyboard('?')
    // The sheet is its own chunk, fetched on the first ?.
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })
    expect(sheet).toHaveTextContent('Shift + Enter')
    expect(sheet).toHaveTextContent('/retake [model]')
    expect(sheet).toHaveTextContent('/undo')
    // Esc where the focus is: inside the sheet, which took it on opening.
    expect(sheet).toContainElement(document.activeElement as HTMLElement)
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
