/** Storage used by this project's checkpoints, and a clean-up by age and/or turns per session. */
import { useState } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import { formatBytes } from '../attachments'
import { useCheckpointStats, useCleanupCheckpoints } from './use-checkpoints'
import { parseCleanup } from './checkpoint-logic'
import { VerifyStore } from './VerifyStore'

export function StorageSection() {
  const stats = useCheckpointStats(true)
  const cleanup = useCleanupCheckpoints()
  const [age, setAge] = useState('30')
  const [turns, setTurns] = useState('')
  const [invalid, setInvalid] = useState<string | null>(null)

  return (
    <section className="ckpt-storage" data-testid="checkpoint-storage">
      <h3>Storage</h3>
      {stats.data ? (
        <p data-testid="storage-stats">
          {formatBytes(stats.data.blobBytes)} of file contents for {stats.data.turns} {stats.data.turns === 1 ? 'turn' : 'turns'} in {stats.data.sessions}{' '}
          {stats.data.sessions === 1 ? 'session' : 'sessions'} of this project
          <span className="muted"> ({formatBytes(stats.data.storeBytes)} on disk in all)</span>
          {stats.data.attemptRestores > 0 && (
            <span className="muted" data-testid="storage-attempts">
              {' '}
              The files of {stats.data.attemptRestores} earlier {stats.data.attemptRestores === 1 ? 'attempt' : 'attempts'} are kept through every clean-up, so you can continue
              from them; they go when their session is deleted.
            </span>
          )}
        </p>
      ) : stats.error ? (
        <div className="inline-error">{errorMessage(stats.error)}</div>
      ) : (
        <p className="muted">Loading…</p>
      )}
      <form
        className="ckpt-cleanup"
        onSubmit={(e) => {
          e.preventDefault()
          const parsed = parseCleanup(age, turns)
          if (!parsed.ok) return setInvalid(parsed.error)
          setInvalid(null)
          cleanup.mutate(parsed.value)
        }}
      >
        <label>
          Older than
          <input data-testid="cleanup-age" inputMode="decimal" value={age} onChange={(e) => setAge(e.target.value)} aria-label="Max age in days" />
          days
        </label>
        <label>
          Keep
          <input data-testid="cleanup-turns" inputMode="numeric" placeholder="all" value={turns} onChange={(e) => setTurns(e.target.value)} aria-label="Max turns per session" />
          turns per session
        </label>
        <button type="submit" className="button button-secondary small" data-testid="run-cleanup" disabled={cleanup.isPending}>
          {cleanup.isPending ? 'Cleaning up…' : 'Clean up'}
        </button>
      </form>
      <VerifyStore />
      <p className="muted small">Turns still running are never dropped. Dropped turns can no longer be restored.</p>
      {invalid && <div className="inline-error">{invalid}</div>}
      {cleanup.error && <div className="inline-error">{errorMessage(cleanup.error)}</div>}
      {cleanup.data && (
        <p data-testid="cleanup-result" role="status">
          Cleaned up: {cleanup.data.turnsDropped} {cleanup.data.turnsDropped === 1 ? 'turn' : 'turns'} dropped, {formatBytes(cleanup.data.bytesFreed)} freed.
        </p>
      )}
    </section>
  )
}
