/**
 * Settings › Notifications: opt in to a system notification when a turn finishes or fails while
 * Retake is in the background. Turning it on asks the browser's permission (the desktop app grants
 * it); a refusal is said, not ignored.
 */
import { useState } from 'react'
import { useNotifyStore } from '../sessions'

export function NotificationsSection() {
  const enabled = useNotifyStore((s) => s.enabled)
  const setEnabled = useNotifyStore((s) => s.setEnabled)
  const [problem, setProblem] = useState<string | null>(null)
  const toggle = async (on: boolean) => {
    setProblem(null)
    if (!on) return setEnabled(false)
    if (typeof Notification === 'undefined') return setProblem('This browser cannot show notifications.')
    const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission()
    if (permission !== 'granted') return setProblem('Notifications are blocked for Retake: allow them in the browser’s site settings, then try again.')
    setEnabled(true)
  }
  return (
    <section className="settings-section" data-testid="settings-notifications">
      <h3>Notifications</h3>
      <label className="settings-check">
        <input type="checkbox" data-testid="notify-turns" checked={enabled} onChange={(e) => void toggle(e.target.checked)} />
        Tell me when a turn finishes or fails while Retake is in the background
      </label>
      {problem && (
        <div className="inline-error" role="alert">
          {problem}
        </div>
      )}
    </section>
  )
}
