import './cmdk-env'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { RetakeAction } from '../../../src/features/retake/RetakeAction'
import { RetakeProvider, type RetakeContextValue } from '../../../src/features/retake/retake-context'
import { useRetakeStore } from '../../../src/features/retake/retake-store'
import { assistant, SID, user } from './fixtures'

const echo = { providerID: 'local', modelID: 'echo' }
const echo2 = { providerID: 'local', modelID: 'echo-2' }
const messages = [user('msg_u1', 'first'), assistant('msg_a1', 'msg_u1'), user('msg_u2', 'second'), assistant('msg_a2', 'msg_u2')]

function ctx(over: Partial<RetakeContextValue> = {}): RetakeContextValue {
  return {
    sessionID: SID,
    getMessages: () => messages,
    model: echo2,
    modelLabel: 'Echo 2',
    options: [
      { ref: echo, key: 'local/echo', providerName: 'Local', modelName: 'Echo' },
      { ref: echo2, key: 'local/echo-2', providerName: 'Local', modelName: 'Echo 2' },
    ],
    busy: false,
    locked: false,
    chooseModel: vi.fn(),
    retake: vi.fn(async () => {}),
    compare: vi.fn(async () => {}),
    changedFiles: () => false,
    openRestoreSheet: vi.fn(),
    openRewindSheet: vi.fn(),
    rewind: vi.fn(async () => {}),
    editSaved: vi.fn(),
    discardSaved: vi.fn(),
    ...over,
  }
}

function renderOn(id: string, value: RetakeContextValue) {
  const m = messages.find((x) => x.info.id === id)!
  render(
    <RetakeProvider value={value}>
      <RetakeAction message={m} />
    </RetakeProvider>,
  )
}

afterEach(() => useRetakeStore.setState({ running: {} }))

describe('RetakeAction', () => {
  it('says which model the retake will use: the one selected now', () => {
    renderOn('msg_u2', ctx())
    const button = screen.getByTestId('retake')
    expect(button).toHaveAttribute('title', 'Retake with Echo 2')
    expect(button).toHaveTextContent('Echo 2')
  })

  it('retakes the last turn at once, from the user or the assistant message', async () => {
    const value = ctx()
    renderOn('msg_a2', value)
    await userEvent.click(screen.getByTestId('retake'))
    expect(value.retake).toHaveBeenCalledWith('msg_a2', echo2)
    expect(screen.queryByTestId('retake-confirm')).toBeNull()
  })

  it('asks before retaking an earlier turn and says what will be discarded', async () => {
    const value = ctx()
    renderOn('msg_u1', value)
    await userEvent.click(screen.getByTestId('retake'))
    expect(value.retake).not.toHaveBeenCalled()
    expect(screen.getByTestId('retake-confirm')).toHaveTextContent('The 1 later turn will be discarded')
    await userEvent.click(screen.getByTestId('retake-confirm-yes'))
    expect(value.retake).toHaveBeenCalledWith('msg_u1', echo2)
  })

  it('Cancel in the confirmation runs nothing', async () => {
    const value = ctx()
    renderOn('msg_u1', value)
    await userEvent.click(screen.getByTestId('retake'))
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(value.retake).not.toHaveBeenCalled()
    expect(screen.queryByTestId('retake-confirm')).toBeNull()
  })

  it('offers "Stop and retake" while a turn streams', () => {
    renderOn('msg_u2', ctx({ busy: true }))
    expect(screen.getByTestId('retake')).toHaveTextContent('Stop and retake')
  })

  it('is locked while a retake runs, and shows that retake’s progress on its message', () => {
    useRetakeStore.setState({ running: { [SID]: { messageID: 'msg_u2', step: 'revert', startedAt: 0 } } })
    renderOn('msg_u2', ctx({ locked: true }))
    expect(screen.getByTestId('retake-progress')).toHaveTextContent('Reverting the conversation')
    expect(screen.queryByTestId('retake')).toBeNull()
  })

  it('is disabled on other messages while a retake runs', () => {
    useRetakeStore.setState({ running: { [SID]: { messageID: 'msg_u2', step: 'prompt', startedAt: 0 } } })
    renderOn('msg_u1', ctx({ locked: true }))
    expect(screen.getByTestId('retake')).toBeDisabled()
    expect(screen.getByTestId('retake-with')).toBeDisabled()
  })

  it('Retake with… retakes with the picked model in one step (the retake, not the menu, makes it the session’s)', async () => {
    const value = ctx({ model: echo, modelLabel: 'Echo' })
    renderOn('msg_a2', value)
    await userEvent.click(screen.getByTestId('retake-with'))
    // The model palette: the current model is highlighted; typing moves the highlight, Enter retakes.
    await userEvent.keyboard('echo 2{Enter}')
    expect(value.retake).toHaveBeenCalledWith('msg_a2', echo2)
    expect(value.chooseModel).not.toHaveBeenCalled()
    expect(screen.queryByTestId('retake-menu')).toBeNull()
  })

  it('Retake with… on an earlier turn, then Cancel: nothing runs and the session’s model stays', async () => {
    const value = ctx({ model: echo, modelLabel: 'Echo' })
    renderOn('msg_a1', value)
    await userEvent.click(screen.getByTestId('retake-with'))
    await userEvent.keyboard('echo 2{Enter}')
    expect(screen.getByTestId('retake-confirm')).toHaveTextContent('Retake this turn with echo-2?')
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByTestId('retake-confirm')).toBeNull()
    expect(value.retake).not.toHaveBeenCalled()
    expect(value.chooseModel).not.toHaveBeenCalled()
  })

  it('Compare up to 3: picking models collects them, and Run starts one compare with them in order', async () => {
    const value = ctx()
    renderOn('msg_a2', value)
    await userEvent.click(screen.getByTestId('retake-with'))
    await userEvent.click(screen.getByTestId('compare-toggle'))
    expect(screen.getByTestId('compare-run')).toBeDisabled()
    await userEvent.click(screen.getAllByRole('option', { name: /^Echo 2/ })[0]!)
    await userEvent.click(screen.getAllByRole('option', { name: /^Echo ·/ })[0]!)
    expect(screen.getByTestId('compare-picked')).toHaveTextContent('1. Echo 22. Echo')
    // Picking does not retake: the menu stays open until Run.
    expect(value.retake).not.toHaveBeenCalled()
    await userEvent.click(screen.getByTestId('compare-run'))
    expect(value.compare).toHaveBeenCalledWith('msg_a2', [echo2, echo])
    expect(screen.queryByTestId('retake-menu')).toBeNull()
  })

  it('Compare: the list stays where it is under the pointer, and ticks what is picked', async () => {
    renderOn('msg_a2', ctx())
    await userEvent.click(screen.getByTestId('retake-with'))
    await userEvent.click(screen.getByTestId('compare-toggle'))
    const rows = () => screen.getAllByRole('option').map((o) => o.dataset.model)
    const before = rows()
    await userEvent.click(screen.getAllByRole('option', { name: /^Echo 2/ })[0]!)
    // No row added above (a "Recent" section) nor moved: the next click lands where it aimed.
    expect(rows()).toEqual(before)
    // Every row of the model picked (Recent and its provider's) is ticked, no other.
    for (const row of screen.getAllByRole('option', { name: /^Echo 2 · Local/ })) expect(row).toHaveAccessibleName(/ticked$/)
    for (const row of screen.getAllByRole('option', { name: /^Echo · Local/ })) expect(row).not.toHaveAccessibleName(/ticked/)
    expect(screen.getAllByRole('option', { name: /ticked$/ })[0]).toHaveAttribute('aria-checked', 'true')
    // What is picked is said below the list, so it never pushes the rows down.
    const list = screen.getByRole('listbox')
    expect(list.compareDocumentPosition(screen.getByTestId('compare-picked')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('Compare on a turn that changed files goes through the restore sheet with the models', async () => {
    const value = ctx({ changedFiles: () => true })
    renderOn('msg_a2', value)
    await userEvent.click(screen.getByTestId('retake-with'))
    await userEvent.click(screen.getByTestId('compare-toggle'))
    await userEvent.click(screen.getAllByRole('option', { name: /^Echo 2/ })[0]!)
    await userEvent.click(screen.getAllByRole('option', { name: /^Echo ·/ })[0]!)
    await userEvent.click(screen.getByTestId('compare-run'))
    expect(value.compare).not.toHaveBeenCalled()
    expect(value.openRestoreSheet).toHaveBeenCalledWith('msg_a2', echo2, undefined, [echo2, echo])
  })

  it('Retake with… closes on Esc without retaking, and focus goes back to its button', async () => {
    const value = ctx()
    renderOn('msg_a2', value)
    await userEvent.click(screen.getByTestId('retake-with'))
    expect(screen.getByRole('option', { selected: true })).toHaveAccessibleName(/^Echo 2 · Local.*current/)
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByTestId('retake-menu')).toBeNull()
    expect(screen.getByTestId('retake-with')).toHaveFocus()
    expect(value.retake).not.toHaveBeenCalled()
  })

  it('a turn that changed files opens the restore sheet instead of retaking at once', async () => {
    const value = ctx({ changedFiles: (id) => id === 'msg_u2' })
    renderOn('msg_a2', value)
    await userEvent.click(screen.getByTestId('retake'))
    expect(value.openRestoreSheet).toHaveBeenCalledWith('msg_a2', echo2)
    expect(value.retake).not.toHaveBeenCalled()
  })

  it('cannot retake without a model', () => {
    renderOn('msg_u2', ctx({ model: undefined, modelLabel: 'no model' }))
    expect(screen.getByTestId('retake')).toBeDisabled()
  })
})
