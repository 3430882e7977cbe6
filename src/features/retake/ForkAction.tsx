/**
 * Fork on a message: a new session with the conversation up to and including this turn
 * (core/retake/fork-session.ts). The files: keep working in this folder as it is now, or a
 * folder of its own holding the project as this turn left it (a git worktree or a copy), so the
 * two sessions never touch each other's files. The new session opens at once.
 */
import { useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { getBridge } from '../../bridge'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import type { MessageWithParts, Session } from '../../api/types'
import { choiceKey, useModelStore } from '../models'
import { modelToKeep } from './fork-model'
import { useRetakeContext } from './retake-context'
import { retakeTargetFor } from '../../../shared/retake/retake-target'
import { useUiStore } from '../../ui/ui-store'
import { ForkIcon } from './ForkIcon'
import { errorMessage } from '../../../shared/unwrap'
import { useFloatingPanel } from '../../ui/Popover'

/** A sibling of the project: `<project>-fork-<month><day>-<hh><mm>`. */
export function defaultForkFolder(directory: string, now = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0')
  return `${directory.replace(/[\\/]+$/, '')}-fork-${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}`
}

type ForkFiles = 'leave' | 'folder'

export function ForkAction({ message }: { message: MessageWithParts }) {
  const ctx = useRetakeContext()
  const scope = useScope()
  const qc = useQueryClient()
  const [open, setOpen] = useState(false)
  const [mode, setMode] = useState<ForkFiles>('folder')
  const [folder, setFolder] = useState('')
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null })
  if (!ctx) return null
  const turnID = retakeTargetFor(ctx.getMessages(), message.info.id)
  if (!turnID) return null

  const fork = async () => {
    setState({ busy: true, error: null })
    try {
      const out = await getBridge().invoke('sessions.fork', { directory: scope.directory, sessionID: ctx.sessionID, turnID, files: mode, ...(mode === 'folder' ? { folder } : {}) })
      if (out.status === 'failed') return setState({ busy: false, error: out.error })
      setOpen(false)
      setState({ busy: false, error: null })
      keepModel(scope.directory, ctx.sessionID, out.directory, out.sessionID)
      const ui = useUiStore.getState()
      ui.selectSession(out.directory, out.sessionID)
      if (out.directory !== scope.directory) ui.setProject(out.directory)
      else await qc.invalidateQueries({ queryKey: queryKeys.sessions(scope) })
    } catch (err) {
      setState({ busy: false, error: errorMessage(err) })
    }
  }

  /** The fork goes on with the model (and agent) of the session it came from. */
  const keepModel = (fromDir: string, fromID: string, toDir: string, toID: string) => {
    const models = useModelStore.getState()
    const session = qc.getQueryData<Session[]>(queryKeys.sessions(scope))?.find((x) => x.id === fromID)
    const ref = modelToKeep(models.models[choiceKey(fromDir, fromID)], session, ctx.getMessages())
    if (ref) models.setModel(choiceKey(toDir, toID), ref)
    const agent = models.agents[choiceKey(fromDir, fromID)]
    if (agent) models.setAgent(choiceKey(toDir, toID), agent)
  }

  return (
    <span className="fork-action">
      <button
        type="button"
        className="text-button"
        data-testid="fork-message"
        disabled={ctx.locked}
        title="Fork a new session from this turn"
        onClick={() => {
          setFolder(defaultForkFolder(scope.directory))
          setOpen((o) => !o)
        }}
      >
        <ForkIcon /> Fork
      </button>
      {open && <ForkPanel mode={mode} onMode={setMode} folder={folder} onFolder={setFolder} state={state} onFork={() => void fork()} onCancel={() => setOpen(false)} />}
    </span>
  )
}

/** Where the fork's files go (a folder of its own, named here, or this one), and Fork / Cancel. */
function ForkPanel(p: {
  mode: ForkFiles
  onMode(mode: ForkFiles): void
  folder: string
  onFolder(folder: string): void
  state: { busy: boolean; error: string | null }
  onFork(): void
  onCancel(): void
}) {
  const panel = useRef<HTMLDivElement>(null)
  const floating = useFloatingPanel(panel)
  const { mode, folder, state } = p
  return (
    <div ref={floating.ref} style={floating.style} className="retake-confirm fork-panel" role="dialog" aria-label="Fork from this turn" data-testid="fork-panel">
      <div>A new session with the conversation up to this turn. Its files:</div>
      <label>
        <input type="radio" name="fork-files" checked={mode === 'folder'} onChange={() => p.onMode('folder')} data-testid="fork-folder-mode" /> In a folder of its own, as this turn
        left them
      </label>
      {mode === 'folder' && (
        <input className="fork-folder" aria-label="Folder for the fork" data-testid="fork-folder" value={folder} onChange={(e) => p.onFolder(e.target.value)} />
      )}
      <label>
        <input type="radio" name="fork-files" checked={mode === 'leave'} onChange={() => p.onMode('leave')} data-testid="fork-leave-mode" /> Here, as they are now (both sessions
        change the same files)
      </label>
      {state.error && (
        <div className="inline-error" role="alert" data-testid="fork-error">
          {state.error}
        </div>
      )}
      <div className="retake-confirm-buttons">
        <button type="button" className="button button-primary small" data-testid="fork-confirm" disabled={state.busy || (mode === 'folder' && !folder.trim())} onClick={p.onFork}>
          {state.busy ? 'Forking…' : 'Fork'}
        </button>
        <button type="button" className="button button-secondary small" onClick={p.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  )
}
