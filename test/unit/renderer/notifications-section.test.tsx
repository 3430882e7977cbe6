import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { NotificationsSection } from '../../../src/features/settings/NotificationsSection'
import { useNotifyStore } from '../../../src/features/sessions/notify-store'

afterEach(() => {
  vi.unstubAllGlobals()
  useNotifyStore.setState({ enabled: false })
})

function stubNotification(answer: NotificationPermission, current: NotificationPermission = 'default') {
  const requestPermission = vi.fn(async () => answer)
  vi.stubGlobal(
    'Notification',
    Object.assign(function Notification() {}, { permission: current, requestPermission }),
  )
  return requestPermission
}

describe('Settings › Notifications', () => {
  it('turning it on asks the browser once and remembers the choice', async () => {
    const ask = stubNotification('granted')
    render(<NotificationsSection />)
    await userEvent.click(screen.getByTestId('notify-turns'))
    await waitFor(() => expect(useNotifyStore.getState().enabled).toBe(true))
    expect(ask).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('notify-turns')).toBeChecked()
    await userEvent.click(screen.getByTestId('notify-turns'))
    expect(useNotifyStore.getState().enabled).toBe(false)
  })

  it('a refused permission leaves it off and says where to allow it', async () => {
    stubNotification('denied')
    render(<NotificationsSection />)
    await userEvent.click(screen.getByTestId('notify-turns'))
    expect(await screen.findByRole('alert')).toHaveTextContent('Notifications are blocked for Retake')
    expect(useNotifyStore.getState().enabled).toBe(false)
    expect(screen.getByTestId('notify-turns')).not.toBeChecked()
  })

  it('already granted (the desktop app): no prompt', async () => {
    const ask = stubNotification('granted', 'granted')
    render(<NotificationsSection />)
    await userEvent.click(screen.getByTestId('notify-turns'))
    await waitFor(() => expect(useNotifyStore.getState().enabled).toBe(true))
    expect(ask).not.toHaveBeenCalled()
  })
})
