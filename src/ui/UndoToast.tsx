/** The sidebar's "… · Undo" line for the last undoable action; it commits after UNDO_MS. */
import { useEffect } from 'react'
import { useUndoToast } from './undo-toast-store'

export const UNDO_MS = 8_000

export function UndoToast() {
  const current = useUndoToast((s) => s.current)
  const undo = useUndoToast((s) => s.undo)
  const expire = useUndoToast((s) => s.expire)
  useEffect(() => {
    if (!current) return
    const t = setTimeout(() => expire(current.id), UNDO_MS)
    return () => clearTimeout(t)
  }, [current, expire])
  if (!current) return null
  return (
    <div className="undo-toast" role="status" data-testid="undo-toast">
      <span className="undo-toast-label">{current.label}</span>
      <button type="button" className="text-button" data-testid="undo-toast-undo" onClick={undo}>
        Undo
      </button>
    </div>
  )
}
