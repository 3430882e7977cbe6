import { useEffect, useState } from 'react'

/** Now, refreshed every half minute: enough for "5 min ago" and the day groups to move on. */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000)
    return () => clearInterval(t)
  }, [])
  return now
}
