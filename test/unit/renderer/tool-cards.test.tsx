import { describe, expect, it } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Part, ToolPart } from '../../../src/api/types'
import { ScopeProvider } from '../../../src/api/scope'
import { MessageRow } from '../../../src/features/chat/MessageRow'
import { ToolCard, toolCardRenders } from '../../../src/features/messages/tools/ToolCard'
import { assistant, SID } from './fixtures'

function tool(name: string, state: Partial<ToolPart['state']> & { status: ToolPart['state']['status'] }, id = 'prt_tool'): ToolPart {
  const base = { input: {}, time: { start: 1, end: 2 }, title: '', metadata: {}, output: '' }
  return { id, sessionID: SID, messageID: 'msg_2', type: 'tool', callID: 'call_1', tool: name, state: { ...base, ...state } as ToolPart['state'] }
}

const inProject = (ui: React.ReactNode) => render(<ScopeProvider scope={{ connection: 'c', directory: '/home/me/app' }}>{ui}</ScopeProvider>)

async function expand() {
  await userEvent.click(screen.getByTestId('tool-toggle'))
  return screen.getByTestId('tool-body')
}

describe('tool cards', () => {
  it('bash: one line with the command and exit code; expanded, the output with its colours as spans, never as HTML', async () => {
    const output = '\u001b[32mok\u001b[0m plain \u001b[1;31m<img src=x onerror=alert(1)>\u001b[0m\u001b]0;title\u0007'
    render(<ToolCard part={tool('bash', { status: 'completed', input: { command: 'npm test' }, output, metadata: { exit: 1 } })} />)
    expect(screen.getByTestId('tool-summary')).toHaveTextContent('$ npm test')
    expect(screen.getByTestId('tool-detail')).toHaveTextContent('exit 1')
    expect(screen.queryByTestId('tool-body')).toBeNull()
    const body = await expand()
    expect(within(body).getByTestId('bash-command')).toHaveTextContent('npm test')
    expect(within(body).getByTestId('bash-exit')).toHaveTextContent('exit code 1')
    const out = within(body).getByTestId('bash-output')
    expect(out.textContent).toBe('ok plain <img src=x onerror=alert(1)>')
    expect(out.querySelector('img')).toBeNull()
    expect(within(out).getByText('ok')).toHaveClass('ansi-fg-green')
    const red = within(out).getByText('<img src=x onerror=alert(1)>')
    expect(red).toHaveClass('ansi-fg-red')
    expect(red).toHaveClass('ansi-bold')
  })

  it('edit: a diff with the file’s line numbers from opencode’s patch, highlighted, and a split view', async () => {
    const diff = [
      'Index: /home/me/app/src/a.ts',
      '===',
      '--- /home/me/app/src/a.ts',
      '+++ /home/me/app/src/a.ts',
      '@@ -10,3 +10,3 @@',
      ' const a = 1',
      '-const b = 2',
      '+const b = 3',
      ' const c = 4',
      '',
    ].join('\n')
    inProject(
      <ToolCard
        part={tool('edit', {
          status: 'completed',
          input: { filePath: '/home/me/app/src/a.ts', oldString: 'const b = 2', newString: 'const b = 3' },
          metadata: { diff, filediff: { additions: 1, deletions: 1 } },
        })}
      />,
    )
    expect(screen.getByTestId('tool-summary')).toHaveTextContent('src/a.ts')
    expect(screen.getByTestId('tool-summary')).not.toHaveTextContent('/home/me')
    expect(screen.getByTestId('tool-detail')).toHaveTextContent('+1 −1')
    const body = await expand()
    const rows = within(body).getAllByRole('row')
    const cells = rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))
    expect(cells).toEqual([
      ['10', '10', ' ', 'const a = 1'],
      ['11', '', '−', 'const b = 2'],
      ['', '11', '+', 'const b = 3'],
      ['12', '12', ' ', 'const c = 4'],
    ])
    expect(rows[2]).toHaveAttribute('data-kind', 'add')
    // Highlighted by highlight.js (TypeScript keywords get their class).
    expect(rows[2]!.querySelector('.hljs-keyword')).not.toBeNull()
    await userEvent.click(within(body).getByTestId('diff-split-toggle'))
    const split = within(body)
      .getAllByRole('row')
      .map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))
    expect(split[1]).toEqual(['11', '−', 'const b = 2', '11', '+', 'const b = 3'])
  })

  it('edit without a patch: the diff is computed from the old and new strings', async () => {
    render(<ToolCard part={tool('edit', { status: 'completed', input: { filePath: 'x.txt', oldString: 'a\nb\nc', newString: 'a\nB\nc' } })} />)
    const body = await expand()
    const kinds = within(body)
      .getAllByRole('row')
      .map((r) => r.getAttribute('data-kind'))
    expect(kinds).toEqual(['context', 'del', 'add', 'context'])
  })

  it('todowrite: a checklist with done, in progress and open items', async () => {
    const todos = [
      { content: 'write the parser', status: 'completed', priority: 'high', id: '1' },
      { content: 'test it', status: 'in_progress', priority: 'medium', id: '2' },
      { content: 'ship', status: 'pending', priority: 'low', id: '3' },
    ]
    render(<ToolCard part={tool('todowrite', { status: 'completed', input: { todos } })} />)
    expect(screen.getByTestId('tool-summary')).toHaveTextContent('1/3 done')
    const body = await expand()
    const boxes = within(body).getAllByRole('checkbox')
    expect(boxes.map((b) => b.getAttribute('aria-checked'))).toEqual(['true', 'mixed', 'false'])
    expect(boxes[0]).toHaveAccessibleName('write the parser (done)')
  })

  it('write and read show the path relative to the project and a size', async () => {
    inProject(<ToolCard part={tool('write', { status: 'completed', input: { filePath: '/home/me/app/notes.txt', content: 'one\ntwo\n' } })} />)
    expect(screen.getByTestId('tool-summary')).toHaveTextContent(/^notes\.txt$/)
    expect(screen.getByTestId('tool-detail')).toHaveTextContent('2 lines · 8 B')
    const body = await expand()
    expect(within(body).getByTestId('tool-path')).toHaveAttribute('title', '/home/me/app/notes.txt')
    expect(within(body).getByTestId('written-content')).toHaveTextContent('1one2two')
  })

  it('glob and grep name the pattern and the count', () => {
    render(
      <>
        <ToolCard part={tool('glob', { status: 'completed', input: { pattern: '**/*.ts' }, metadata: { count: 12 } }, 'p1')} />
        <ToolCard part={tool('grep', { status: 'completed', input: { pattern: 'TODO' }, metadata: { matches: 1 } }, 'p2')} />
      </>,
    )
    const [glob, grep] = screen.getAllByTestId('tool-call')
    expect(glob).toHaveTextContent('**/*.ts')
    expect(glob).toHaveTextContent('12 files')
    expect(grep).toHaveTextContent('1 match')
  })

  it('an unknown tool falls back to its arguments and output; Raw shows the JSON; collapsed by default, Enter expands', async () => {
    render(<ToolCard part={tool('mcp_search', { status: 'completed', input: { query: 'cats', limit: 3 }, output: 'found 3', title: 'Search cats' })} />)
    const toggle = screen.getByTestId('tool-toggle')
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getByTestId('tool-summary')).toHaveTextContent('Search cats')
    toggle.focus()
    await userEvent.keyboard('{Enter}')
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const body = screen.getByTestId('tool-body')
    expect(within(body).getByTestId('tool-args')).toHaveTextContent('querycats')
    expect(within(body).getByTestId('tool-output')).toHaveTextContent('found 3')
    await userEvent.click(within(body).getByTestId('tool-raw-toggle'))
    const raw = JSON.parse(within(body).getByTestId('tool-raw').textContent!)
    expect(raw).toMatchObject({ tool: 'mcp_search', status: 'completed', input: { query: 'cats', limit: 3 }, output: 'found 3' })
  })

  it('running and failed calls say so', async () => {
    const { rerender } = render(<ToolCard part={tool('bash', { status: 'running', input: { command: 'sleep 1' }, metadata: { output: 'partial' } })} />)
    expect(screen.getByTestId('tool-call')).toHaveAttribute('data-status', 'running')
    expect(screen.getByTestId('tool-toggle')).toHaveTextContent('running')
    const body = await expand()
    expect(within(body).getByTestId('bash-output')).toHaveTextContent('partial')
    rerender(<ToolCard part={tool('bash', { status: 'error', input: { command: 'sleep 1' }, error: 'Tool execution aborted' })} />)
    expect(screen.getByTestId('tool-toggle')).toHaveTextContent('failed')
    expect(screen.getByRole('alert')).toHaveTextContent('Tool execution aborted')
  })

  it('text streaming beside a card does not re-render it', () => {
    const card = tool('bash', { status: 'completed', input: { command: 'ls' }, output: 'a' })
    const text = (t: string): Part => ({ id: 'prt_text', sessionID: SID, messageID: 'msg_2', type: 'text', text: t })
    const { rerender } = render(<MessageRow message={assistant('msg_2', 'msg_1', {}, [card, text('he')])} continued={false} />)
    const before = toolCardRenders.count
    rerender(<MessageRow message={assistant('msg_2', 'msg_1', {}, [card, text('hello')])} continued={false} />)
    rerender(<MessageRow message={assistant('msg_2', 'msg_1', {}, [card, text('hello world')])} continued={false} />)
    expect(screen.getByTestId('part-text')).toHaveTextContent('hello world')
    expect(toolCardRenders.count).toBe(before)
  })

  it('in a fork’s own folder, the copied turns’ paths read relative to the folder they ran in', () => {
    // Forked from /home/me/app into /home/me/app-fork: the copied turn ran in /home/me/app.
    const card = tool('write', { status: 'completed', input: { filePath: '/home/me/app/src/one.txt', content: 'x' } })
    render(
      <ScopeProvider scope={{ connection: 'c', directory: '/home/me/app-fork' }}>
        <MessageRow message={assistant('msg_2', 'msg_1', { path: { cwd: '/home/me/app', root: '/home/me/app' } }, [card])} continued={false} />
      </ScopeProvider>,
    )
    expect(screen.getByTestId('tool-summary')).toHaveTextContent('src/one.txt')
    expect(screen.getByTestId('tool-summary')).not.toHaveTextContent('/home/me/app')
  })
})
