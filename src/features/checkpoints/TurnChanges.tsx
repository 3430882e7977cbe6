/**
 * What a user turn changed on disk, under its message: "3 files · +12 −4", opening the list of files
 * and each text file's diff (loaded when asked for, from the checkpoint).
 */
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { getBridge } from '../../bridge'
import { useScope } from '../../api/scope'
import { summarizeChanges } from './checkpoint-logic'
import type { TurnCheckpoint } from '../../../shared/ipc-contract'
import { displayFilePath, displayPath } from '../../../shared/display-path'
import { checkpointKeys } from '../../api/query-keys'

const CHANGE_LABEL: Record<string, string> = { added: 'added', modified: 'changed', deleted: 'deleted', mode: 'mode', type: 'type', 'not-checkpointed': 'not checkpointed' }

export function TurnChanges({ sessionID, turn }: { sessionID: string; turn: TurnCheckpoint }) {
  const [open, setOpen] = useState(false)
  const [diffOf, setDiffOf] = useState<string | null>(null)
  const { directory } = useScope()
  const detailed = useQuery({
    queryKey: checkpointKeys.changes(directory, sessionID, turn.messageID),
    enabled: diffOf !== null,
    queryFn: () => getBridge().invoke('checkpoints.changes', { directory, sessionID, messageID: turn.messageID }),
  })
  const s = summarizeChanges(turn.changes)
  const files = turn.changes.length
  if (files === 0) return null
  const diff = diffOf ? detailed.data?.find((c) => `${c.root}\n${c.path}` === diffOf) : undefined
  return (
    <div className="turn-changes" data-testid="turn-changes" data-restored={turn.status === 'restored' || undefined}>
      <button type="button" className="text-button" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="turn-changes-toggle">
        {turn.status === 'restored' ? 'rolled back · ' : ''}
        {files} file{files === 1 ? '' : 's'} · <span className="diff-add">+{s.plus}</span> <span className="diff-del">−{s.minus}</span>
      </button>
      {open && (
        <ul className="turn-change-list">
          {turn.changes.map((c) => {
            const key = `${c.root}\n${c.path}`
            return (
              <li key={key} data-change={c.change}>
                <span className={`change-kind change-${c.change}`}>{CHANGE_LABEL[c.change] ?? c.change}</span>
                <span className="change-path" title={`${c.root}/${displayPath(c.path)}`}>
                  {displayFilePath(c, directory)}
                </span>
                {c.binary ? (
                  <span className="muted">binary</span>
                ) : (
                  <span className="muted">
                    +{c.added} −{c.removed}
                  </span>
                )}
                {!c.binary && c.change !== 'not-checkpointed' && (
                  <button type="button" className="text-button" data-testid="view-diff" onClick={() => setDiffOf(diffOf === key ? null : key)}>
                    {diffOf === key ? 'hide diff' : 'diff'}
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {open && diffOf && (
        <pre className="diff-view" data-testid="diff-view">
          {detailed.isLoading ? 'Loading…' : diff?.diff ? <DiffLines text={diff.diff} /> : 'No text diff for this file.'}
        </pre>
      )}
    </div>
  )
}

export function DiffLines({ text }: { text: string }) {
  return (
    <>
      {text.split('\n').map((line, i) => (
        <span
          key={i}
          className={
            line.startsWith('+') && !line.startsWith('+++')
              ? 'diff-add'
              : line.startsWith('-') && !line.startsWith('---')
                ? 'diff-del'
                : line.startsWith('@@')
                  ? 'diff-hunk'
                  : undefined
          }
        >
          {line}
          {'\n'}
        </span>
      ))}
    </>
  )
}
