/** Idle / working / provider retrying (with a live countdown) / reconnecting. */
import { useEffect, useState } from 'react'
import type { SessionStatus } from '../../api/types'
import { statusLine } from './status-line'

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const t = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(t)
  }, [active])
  return now
}

export function StatusLine({ status, streamConnected }: { status: SessionStatus | undefined; streamConnected: boolean }) {
  const now = useNow(status?.type === 'retry')
  const line = statusLine(status, now, streamConnected)
  return (
    <div className={`status-line status-${line.kind}`} data-testid="status-line" data-kind={line.kind} role="status" title={line.detail}>
      <span className="status-dot" aria-hidden="true" />
      <span className="status-text">{line.text}</span>
      {line.detail && <span className="status-detail">— {line.detail}</span>}
    </div>
  )
}
