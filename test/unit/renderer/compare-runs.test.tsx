/**
 * The compare view of "Retake with several models": each run's answer as the timeline shows it
 * (markdown, tool cards), a failed run's provider error, each file's diff side by side; and when
 * "Keep this one" runs in one step.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { setBridge } from '../../../src/bridge'
import type { Part } from '../../../src/api/types'
import { CompareRuns } from '../../../src/features/retake/CompareRuns'
import { keepsInOneStep, type CompareColumn } from '../../../src/features/retake/compare-columns'
import { continuedText } from '../../../src/features/retake/use-retake-session'
import type { Attempt, RetakeBridge } from '../../../shared/ipc-contract'
import { apiError, assistant, SID } from './fixtures'

const DIR = '/p'
const text = (id: string, t: string) => ({ id, sessionID: SID, messageID: 'msg_a', type: 'text', text: t }) as Part
const tool = (id: string) =>
  ({
    id,
    sessionID: SID,
    messageID: 'msg_a',
    type: 'tool',
    callID: id,
    tool: 'write',
    state: { status: 'completed', input: { filePath: `${DIR}/two.txt`, content: 'by two\n' }, output: 'Wrote file', title: 'two.txt', metadata: {}, time: { start: 1, end: 2 } },
  }) as unknown as Part

const attempt: Attempt = { sessionID: SID, messageID: 'msg_u', at: 10, messages: [], restoreId: 'rst_10' }
const diff = '--- a/two.txt\n+++ b/two.txt\n@@ -1 +1 @@\n-old line\n+by two\n'

function renderView(columns: CompareColumn[]) {
  setBridge({
    async invoke(channel: string) {
      if (channel === 'checkpoints.restoreChanges') return [{ root: DIR, path: 'two.txt', change: 'modified', binary: false, added: 1, removed: 1, diff }]
      if (channel === 'checkpoints.changes') return []
      throw new Error(`unexpected ${channel}`)
    },
    on: () => () => {},
  } as unknown as RetakeBridge)
  const onKeep = vi.fn()
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ScopeProvider scope={{ connection: 'c', directory: DIR }}>
        <CompareRuns columns={columns} turn={{ sessionID: SID, messageID: 'msg_u' }} onKeep={onKeep} onClose={() => {}} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return onKeep
}

const model = { providerID: 'p', modelID: 'two' }

afterEach(() => setBridge(null))

describe('CompareRuns', () => {
  it('shows each answer as markdown with its tool cards, and each file’s diff side by side', async () => {
    const onKeep = renderView([
      { model, modelLabel: 'Two', attempt, answers: [assistant('msg_a', 'msg_u', {}, [tool('t1'), text('x1', 'I wrote **two.txt**:\n\n- one line')])] },
      { model: { providerID: 'p', modelID: 'three' }, modelLabel: 'Three', answers: [], changes: [] },
    ])
    const run = screen.getByRole('region', { name: '1. Two' })
    expect(within(run).getByText('two.txt', { selector: 'strong' })).toBeInTheDocument()
    expect(within(run).getByText('one line').closest('li')).not.toBeNull()
    expect(within(run).getByTestId('tool-call')).toHaveAttribute('data-tool', 'write')
    expect(within(run).getByTestId('compare-answer')).not.toHaveTextContent('**')
    await userEvent.click(await within(run).findByRole('button', { name: 'Show the changes to two.txt' }))
    const table = within(run).getByRole('table', { name: 'Changes to two.txt, side by side' })
    expect(within(table).getByText('old line').closest('td')).toHaveClass('diff-del')
    expect(within(table).getByText('by two').closest('td')).toHaveClass('diff-add')
    await userEvent.click(within(run).getByRole('button', { name: 'Keep this one' }))
    expect(onKeep).toHaveBeenCalledWith(attempt, model)
  })

  it('a run that failed says what the provider answered', () => {
    renderView([
      { model, modelLabel: 'Two', attempt, answers: [assistant('msg_a', 'msg_u', { error: apiError('Rate limit reached for requests', 429) })] },
      { model: { providerID: 'p', modelID: 'three' }, modelLabel: 'Three', answers: [], failed: 'unknown model p/three' },
    ])
    expect(within(screen.getByRole('region', { name: '1. Two' })).getByRole('alert')).toHaveTextContent('Ended with an error: Rate limit reached for requests (429)')
    expect(within(screen.getByRole('region', { name: '2. Three' })).getByRole('alert')).toHaveTextContent('Did not run: unknown model p/three')
  })

  it('keeps a run in one step unless a file changed since the runs (a conflict asks first)', () => {
    expect(keepsInOneStep({ actions: [{ id: 'r:four.txt', root: DIR, path: 'four.txt', kind: 'delete' }] })).toBe(true)
    expect(keepsInOneStep({ actions: [{ id: 'r:a.txt', root: DIR, path: 'a.txt', kind: 'conflict', reason: 'edited since' }] })).toBe(false)
  })

  it('after keeping a run, the note says which files stayed without saying the user changed them', () => {
    expect(continuedText(0)).toBe('Continued from the earlier attempt. The answers you left are kept as an attempt: ‹ › to go back.')
    expect(continuedText(1)).toMatch(/ 1 file changed since was left as it is\.$/)
    expect(continuedText(2)).toMatch(/ 2 files changed since were left as they are\.$/)
    expect(continuedText(2)).not.toMatch(/you changed/)
  })
})
