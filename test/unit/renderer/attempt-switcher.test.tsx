import { describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AttemptSwitcher } from '../../../src/features/retake/AttemptSwitcher'
import { InterruptedSwitchNotice } from '../../../src/features/retake/InterruptedSwitchNotice'
import type { Attempt } from '../../../shared/ipc-contract'
import { SID, assistant, user } from './fixtures'

const attempt = (at: number, text: string): Attempt => ({
  sessionID: SID,
  messageID: 'msg_u1',
  at,
  model: { providerID: 'fake', modelID: 'echo' },
  messages: [assistant(`msg_a${at}`, 'msg_u1', {}, [{ id: `prt_${at}`, sessionID: SID, messageID: `msg_a${at}`, type: 'text', text } as never])],
  user: user('msg_u1', 'the question'),
})

describe('AttemptSwitcher', () => {
  it('offers "Continue from this attempt" for the earlier attempt shown, not for the current one', async () => {
    const onContinue = vi.fn()
    const list = [attempt(1, 'first answer'), attempt(2, 'second answer')]
    render(<AttemptSwitcher attempts={list} current={user('msg_u1', 'the question')} onContinue={onContinue} />)
    expect(screen.getByTestId('attempt-label').textContent).toBe('attempt 3 of 3')
    expect(screen.queryByTestId('attempt-continue')).toBeNull()
    await userEvent.click(screen.getByTestId('attempt-prev'))
    await userEvent.click(screen.getByTestId('attempt-prev'))
    expect(screen.getByTestId('attempt-panel').textContent).toContain('first answer')
    await userEvent.click(screen.getByTestId('attempt-continue'))
    expect(onContinue).toHaveBeenCalledWith(list[0])
  })

  it('cannot continue while a retake or switch of the session runs', async () => {
    const onContinue = vi.fn()
    render(<AttemptSwitcher attempts={[attempt(1, 'first answer')]} onContinue={onContinue} locked />)
    await userEvent.click(screen.getByTestId('attempt-prev'))
    expect((screen.getByTestId('attempt-continue') as HTMLButtonElement).disabled).toBe(true)
  })
})

describe('InterruptedSwitchNotice', () => {
  it('says nothing while no switch was cut off', () => {
    const { container } = render(<InterruptedSwitchNotice attempts={[attempt(1, 'first answer')]} onFinish={vi.fn()} />)
    expect(container.textContent).toBe('')
  })

  it('offers to finish a cut-off switch (the attempt it was switching to), not while the session is busy', async () => {
    const onFinish = vi.fn()
    const cut = { ...attempt(2, 'second answer'), switching: true }
    const { rerender } = render(<InterruptedSwitchNotice attempts={[attempt(1, 'first answer'), cut]} onFinish={onFinish} locked />)
    expect(screen.getByTestId('interrupted-switch').textContent).toContain('did not finish')
    expect((screen.getByTestId('finish-switch') as HTMLButtonElement).disabled).toBe(true)
    rerender(<InterruptedSwitchNotice attempts={[attempt(1, 'first answer'), cut]} onFinish={onFinish} />)
    await userEvent.click(screen.getByTestId('finish-switch'))
    expect(onFinish).toHaveBeenCalledWith(cut)
  })
})
