/** A value that only takes effect after it has stayed the same for `ms` (to skip transient states). */
import { useEffect, useState } from 'react'

export function useSettled<T>(value: T, ms: number): T | undefined {
  const [settled, setSettled] = useState<T | undefined>(undefined)
  useEffect(() => {
    if (value === undefined) {
      setSettled(undefined)
      return
    }
    const t = setTimeout(() => setSettled(() => value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return value === undefined ? undefined : settled
}
