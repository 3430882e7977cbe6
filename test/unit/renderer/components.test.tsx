import { describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { Composer } from '../../../src/features/chat/Composer'
import { MessageRow } from '../../../src/features/chat/MessageRow'
import { MessageActionsProvider } from '../../../src/ui/MessageActions'
import { apiError, assistant, SID, user } from './fixtures'

function ControlledComposer({ onSend, busy = false, onStop = () => {} }: { onSend(text: string): void; busy?: boolean; onStop?(): void }) {
  const [value, setValue] = useState('')
  return <Composer value={value} onChange={setValue} onSend={() => onSend(value)} onStop={onStop} busy={busy} />
}

describe('Composer', () => {
  it('Enter sends, Shift+Enter inserts a newline', async () => {
    const onSend = vi.fn()
    render(<ControlledComposer onSend={onSend} />)
    const box = screen.getByTestId('composer')
    await userEvent.type(box, 'line one{Shift>}{Enter}{/Shift}line two')
    expect(box).toHaveValue('line one\nline two')
    expect(onSend).not.toHaveBeenCalled()
    await userEvent.type(box, '{Enter}')
    expect(onSend).toHaveBeenCalledWith('line one\nline two')
  })

  it('ignores Enter while an IME composition is active', () => {
    const onSend = vi.fn()
    render(<ControlledComposer onSend={onSend} />)
    const box = screen.getByTestId('composer')
    fireEvent.change(box, { target: { value: 'にほん' } })
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true })
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 })
    expect(onSend).not.toHaveBeenCalled()
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(onSend).toHaveBeenCalledTimes(1)
  })

  it('does not send an empty message; shows Stop only while busy', async () => {
    const onSend = vi.fn()
    const onStop = vi.fn()
    const { rerender } = render(<ControlledComposer onSend={onSend} />)
    expect(screen.getByTestId('send')).toBeDisabled()
    await userEvent.type(screen.getByTestId('composer'), '   {Enter}')
    expect(onSend).not.toHaveBeenCalled()
    expect(screen.queryByTestId('stop')).toBeNull()
    rerender(<ControlledComposer onSend={onSend} busy onStop={onStop} />)
    await userEvent.click(screen.getByTestId('stop'))
    expect(onStop).toHaveBeenCalled()
  })
})

describe('MessageRow', () => {
  const tool = {
    id: 'prt_tool',
    sessionID: SID,
    messageID: 'msg_2',
    type: 'tool' as const,
    callID: 'call_1',
    tool: 'write',
    state: {
      status: 'completed' as const,
      input: { filePath: '/p/gen.txt', content: 'v1\n' },
      output: 'Wrote file successfully.',
      title: 'gen.txt',
      metadata: {},
      time: { start: 1, end: 2 },
    },
  }

  it('shows a tool call compactly and expands what it wrote', async () => {
    render(<MessageRow message={assistant('msg_2', 'msg_1', {}, [tool])} continued={false} />)
    const call = screen.getByTestId('tool-call')
    expect(call).toHaveAttribute('data-status', 'completed')
    expect(call).toHaveTextContent('write')
    expect(call).toHaveTextContent('gen.txt')
    expect(screen.queryByTestId('tool-body')).toBeNull()
    await userEvent.click(screen.getByTestId('tool-toggle'))
    expect(screen.getByTestId('tool-toggle')).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByTestId('tool-body')).toHaveTextContent('v1')
    // The path as the turn's own folder sees it (the message ran in /p).
    expect(screen.getByTestId('tool-body')).toHaveTextContent('gen.txt')
    expect(screen.getByTestId('tool-body')).not.toHaveTextContent('/p/gen.txt')
  })

  it('marks roles, ids and streaming', () => {
    const streaming = assistant('msg_2', 'msg_1', { time: { created: 2 } }, [{ id: 'prt_t', sessionID: SID, messageID: 'msg_2', type: 'text', text: 'partial' }])
    render(
      <>
        <MessageRow message={user('msg_1', 'hi')} continued={false} />
        <MessageRow message={streaming} continued={false} />
      </>,
    )
    const rows = screen.getAllByTestId('message')
    expect(rows[0]).toHaveAttribute('data-role', 'user')
    expect(rows[0]).toHaveAttribute('data-message-id', 'msg_1')
    expect(rows[0]).not.toHaveAttribute('data-streaming')
    expect(rows[1]).toHaveAttribute('data-streaming', 'true')
    expect(rows[1]).toHaveTextContent('partial')
  })

  it('shows a provider error once, with message and status code', () => {
    const failed = assistant('msg_2', 'msg_1', { error: apiError('Injected failure FAIL400: rejected', 400) })
    render(<MessageRow message={failed} continued={false} />)
    const blocks = screen.getAllByTestId('error-block')
    expect(blocks).toHaveLength(1)
    expect(blocks[0]).toHaveTextContent('APIError · HTTP 400')
    expect(blocks[0]).toHaveTextContent('Injected failure FAIL400: rejected')
  })

  it('shows an abort quietly, not as an error', () => {
    const aborted = assistant('msg_2', 'msg_1', { error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } })
    render(<MessageRow message={aborted} continued={false} />)
    expect(screen.queryByTestId('error-block')).toBeNull()
    expect(screen.getByTestId('aborted-note')).toBeInTheDocument()
  })

  it('renders markdown safely and gives code blocks a copy button', async () => {
    const md = assistant('msg_2', 'msg_1', {}, [
      { id: 'prt_t', sessionID: SID, messageID: 'msg_2', type: 'text', text: '# Title\n<img src=x onerror="alert(1)">\n\n```js\nconst a = 1\n```' },
    ])
    const { container } = render(<MessageRow message={md} continued={false} />)
    expect(container.querySelector('h1')).toHaveTextContent('Title')
    expect(container.querySelector('[onerror]')).toBeNull()
    expect(container.querySelector('pre code')).toHaveTextContent('const a = 1')
    // The grammar arrives on demand (src/ui/markdown/highlight.ts); the block is then highlighted in place.
    await waitFor(() => expect(container.querySelector('.hljs-keyword')).toHaveTextContent('const'))
    expect(container.querySelector('[onerror]')).toBeNull()
    expect(screen.getByTestId('copy-code')).toBeInTheDocument()
  })

  it('offers plugged-in actions on user, assistant and error targets', () => {
    const render1 = vi.fn((_m, target: string) => <button data-testid={`extra-${target}`}>↺</button>)
    render(
      <MessageActionsProvider render={render1}>
        <MessageRow message={user('msg_1', 'hi')} continued={false} />
        <MessageRow message={assistant('msg_2', 'msg_1', { error: apiError('x', 500) })} continued={false} />
      </MessageActionsProvider>,
    )
    expect(screen.getByTestId('extra-user')).toBeInTheDocument()
    expect(screen.getByTestId('extra-error')).toBeInTheDocument()
  })
})
