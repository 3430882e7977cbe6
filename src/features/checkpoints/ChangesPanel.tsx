/**
 * Changes: what the session's turns did to the files, from their checkpoints — for the whole session
 * or one turn — as a filtered folder tree and each file's diffs (unified or side by side, coloured),
 * in any folder, git repository or not. From a file, "Restore this file…" opens the restore sheet
 * with only that file chosen, back to before the first turn shown that changed it.
 */
import { useQueries } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { TurnCheckpoint } from '../../../shared/ipc-contract'
import { displayFilePath } from '../../../shared/display-path'
import { errorMessage } from '../../../shared/unwrap'
import { checkpointKeys } from '../../api/query-keys'
import { getBridge } from '../../bridge'
import { Dialog } from '../../ui/Dialog'
import { changedFiles, fileKey, fileTree, type ChangedFile, type TreeFolder } from './changes-logic'
import { turnLabel } from './checkpoint-logic'
import { DiffView, type DiffLayout } from './DiffView'
import { RestoreOutcome } from './RestoreOutcome'
import { RestoreSheet } from './RestoreSheet'
import { useCheckpointRestores, type CheckpointRestores } from './use-checkpoint-restores'
import '../../styles/checkpoints.css'

const CHANGE_WORD: Record<string, string> = {
  added: 'added',
  modified: 'changed',
  deleted: 'deleted',
  mode: 'mode changed',
  type: 'type changed',
  'not-checkpointed': 'not checkpointed',
}

function FolderRows({ folder, depth, selected, onSelect }: { folder: TreeFolder; depth: number; selected: string | null; onSelect(key: string): void }) {
  return (
    <>
      {folder.folders.map((d) => (
        <li key={`d:${d.path}`} role="none">
          <div className="changes-folder" style={{ paddingInlineStart: `${depth * 12}px` }}>
            {d.name}/
          </div>
          <ul role="group" className="changes-tree">
            <FolderRows folder={d} depth={depth + 1} selected={selected} onSelect={onSelect} />
          </ul>
        </li>
      ))}
      {folder.files.map((f) => {
        const last = f.turns.at(-1)!
        return (
          <li key={f.key} role="none">
            <button
              type="button"
              role="treeitem"
              aria-selected={selected === f.key}
              className="changes-file"
              data-testid="changes-file"
              data-change={last.change}
              style={{ paddingInlineStart: `${depth * 12}px` }}
              onClick={() => onSelect(f.key)}
            >
              <span className="changes-name">{f.path.split('/').pop()}</span>
              <span className="muted small">
                +{f.added} −{f.removed}
              </span>
            </button>
          </li>
        )
      })}
    </>
  )
}

/** The diffs of one file, one per turn that changed it (loaded from the checkpoints when shown). */
function FileDiffs(p: { sessionID: string; file: ChangedFile; turns: TurnCheckpoint[]; panel: CheckpointRestores; layout: DiffLayout; onRestore(): void }) {
  const { sessionID, file, turns, panel, layout, onRestore } = p
  const { directory } = panel
  const shown = turns.filter((t) => file.turns.some((ft) => ft.messageID === t.messageID))
  const details = useQueries({
    queries: shown.map((t) => ({
      queryKey: checkpointKeys.changes(directory, sessionID, t.messageID),
      queryFn: () => getBridge().invoke('checkpoints.changes', { directory, sessionID, messageID: t.messageID }),
    })),
  })
  return (
    <section className="changes-diffs" aria-label={`Changes to ${file.path}`} data-testid="changes-diffs">
      <div className="changes-file-head">
        <strong className="changes-path">{displayFilePath(file, directory)}</strong>
        <button type="button" className="button button-secondary small" data-testid="changes-restore-file" disabled={panel.working} onClick={onRestore}>
          Restore this file…
        </button>
      </div>
      {shown.map((t, i) => {
        const q = details[i]!
        const change = q.data?.find((c) => fileKey(c) === file.key)
        const ft = file.turns.find((x) => x.messageID === t.messageID)!
        return (
          <div key={t.messageID} className="changes-turn-diff">
            <div className="muted small">
              {CHANGE_WORD[ft.change] ?? ft.change} by “{turnLabel(t, panel.messages.data)}”
            </div>
            {q.isLoading ? (
              <p className="muted">Loading…</p>
            ) : q.error ? (
              <div className="inline-error">{errorMessage(q.error)}</div>
            ) : ft.binary ? (
              <p className="muted">Binary file: no text diff.</p>
            ) : (
              <DiffView diff={change?.diff ?? ''} path={file.path} layout={layout} />
            )}
          </div>
        )
      })}
    </section>
  )
}

export function ChangesPanel({ sessionID, busy, onClose }: { sessionID: string; busy: boolean; onClose(): void }) {
  const panel = useCheckpointRestores(sessionID, busy)
  const { turns, messages, target, setTarget, apply, outcome, setOutcome, directory } = panel
  const [scope, setScope] = useState<string>('session')
  const [filter, setFilter] = useState('')
  const [layout, setLayout] = useState<DiffLayout>('unified')
  const [selected, setSelected] = useState<string | null>(null)
  const [only, setOnly] = useState<{ root: string; path: string } | undefined>()
  const all = useMemo(() => [...(turns.data ?? [])].sort((a, b) => a.createdAt - b.createdAt), [turns.data])
  const inScope = scope === 'session' ? all : all.filter((t) => t.messageID === scope)
  const files = useMemo(() => changedFiles(inScope), [inScope])
  const tree = useMemo(() => fileTree(files, filter), [files, filter])
  const file = files.find((f) => f.key === selected) ?? null

  const restoreFile = (f: ChangedFile) => {
    const first = all.find((t) => t.messageID === f.turns[0]!.messageID)
    if (!first) return
    setOnly({ root: f.root, path: f.path })
    setTarget(first)
  }

  return (
    <Dialog className="ckpt-sheet changes-sheet" labelledBy="changes-title" testid="changes-panel" onClose={onClose}>
      <div className="dialog-head">
        <h2 id="changes-title">Changes</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ✕
        </button>
      </div>
      {outcome && <RestoreOutcome result={outcome.result} verb={outcome.verb} projectRoot={directory} onDismiss={() => setOutcome(null)} />}
      {target ? (
        <RestoreSheet
          sessionID={sessionID}
          messageID={target.messageID}
          only={only}
          purpose={{ kind: 'files', turnLabel: turnLabel(target, messages.data), applying: apply.isPending, error: apply.error ? errorMessage(apply.error) : null }}
          onConfirm={panel.confirm}
          onCancel={() => setTarget(null)}
        />
      ) : (
        <>
          <div className="changes-controls">
            <label>
              Show
              <select value={scope} onChange={(e) => setScope(e.target.value)} data-testid="changes-scope">
                <option value="session">The whole session</option>
                {all.map((t, i) => (
                  <option key={t.messageID} value={t.messageID}>
                    Turn {i + 1}: {turnLabel(t, messages.data)}
                  </option>
                ))}
              </select>
            </label>
            <input type="search" placeholder="Filter files" aria-label="Filter files" value={filter} onChange={(e) => setFilter(e.target.value)} data-testid="changes-filter" />
            <div role="radiogroup" aria-label="Diff layout" className="changes-layout">
              {(['unified', 'split'] as const).map((l) => (
                <label key={l}>
                  <input type="radio" name="diff-layout" checked={layout === l} onChange={() => setLayout(l)} />
                  {l === 'unified' ? 'Unified' : 'Side by side'}
                </label>
              ))}
            </div>
          </div>
          {turns.isLoading ? (
            <p className="muted">Loading checkpoints…</p>
          ) : turns.error ? (
            <div className="inline-error">{errorMessage(turns.error)}</div>
          ) : files.length === 0 ? (
            <p className="muted" data-testid="changes-none">
              {all.length === 0 ? 'No turns recorded yet.' : 'No file was changed.'}
            </p>
          ) : (
            <div className="changes-body">
              <ul className="changes-tree" role="tree" aria-label="Changed files" data-testid="changes-tree">
                <FolderRows folder={tree} depth={0} selected={selected} onSelect={setSelected} />
              </ul>
              {file ? (
                <FileDiffs sessionID={sessionID} file={file} turns={all} panel={panel} layout={layout} onRestore={() => restoreFile(file)} />
              ) : (
                <p className="muted">Choose a file to see its changes.</p>
              )}
            </div>
          )}
        </>
      )}
    </Dialog>
  )
}
