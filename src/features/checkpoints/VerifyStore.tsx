/**
 * "Check" reads every file this project's checkpoints hold and says whether each is intact. When
 * something is damaged or missing it names the files that can no longer be put back, and offers a
 * repair that only moves damaged content aside and drops what no checkpoint refers to.
 */
import { errorMessage } from '../../../shared/unwrap'
import { formatBytes } from '../attachments'
import { displayPath } from '../../../shared/display-path'
import { useVerifyCheckpoints } from './use-checkpoints'

const SHOWN = 8

export function VerifyStore() {
  const verify = useVerifyCheckpoints()
  const r = verify.data
  const problems = r ? [...r.damaged.map((p) => ({ ...p, what: 'damaged' })), ...r.missing.map((p) => ({ ...p, what: 'missing' }))] : []
  return (
    <div className="ckpt-verify" data-testid="checkpoint-verify">
      <button type="button" className="button button-secondary small" data-testid="run-verify" disabled={verify.isPending} onClick={() => verify.mutate(false)}>
        {verify.isPending ? 'Checking…' : 'Check checkpoints'}
      </button>
      {verify.error && <div className="inline-error">{errorMessage(verify.error)}</div>}
      {r && (
        <div role="status" data-testid="verify-result" data-ok={r.ok ? 'true' : 'false'}>
          {r.ok ? (
            <p>
              All {r.blobsChecked} checkpoint {r.blobsChecked === 1 ? 'file is' : 'files are'} intact.
              {r.unreachableBlobs > 0 && <span className="muted"> {formatBytes(r.unreachableBytes)} no longer needed can be cleaned up.</span>}
            </p>
          ) : (
            <>
              <p className="inline-error">
                {problems.length} {problems.length === 1 ? 'file' : 'files'} can no longer be restored
                {r.brokenTurns.length > 0 && `, ${r.brokenTurns.length} ${r.brokenTurns.length === 1 ? 'turn has' : 'turns have'} lost a checkpoint`}.
              </p>
              <ul className="ckpt-plan-list">
                {problems.slice(0, SHOWN).map((p) => (
                  <li key={`${p.what}${p.root}${p.path}`} data-testid="verify-problem">
                    <span className="ckpt-path">{displayPath(p.path)}</span> <span className="muted">{p.what}</span>
                  </li>
                ))}
                {problems.length > SHOWN && <li className="muted">and {problems.length - SHOWN} more</li>}
              </ul>
            </>
          )}
          {r.repaired ? (
            <p data-testid="verify-repaired">
              Repaired: {r.repaired.damagedMovedAside} damaged moved aside, {r.repaired.blobsSwept} unused dropped ({formatBytes(r.repaired.bytesFreed)}).
            </p>
          ) : (
            (!r.ok || r.unreachableBlobs > 0) && (
              <button type="button" className="button button-secondary small" data-testid="run-repair" disabled={verify.isPending} onClick={() => verify.mutate(true)}>
                Repair
              </button>
            )
          )}
        </div>
      )}
    </div>
  )
}
