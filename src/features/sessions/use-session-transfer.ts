/**
 * Export (Markdown, opencode JSON) and import (opencode JSON) of sessions, as the palette offers
 * them: the messages are read whole from the server (not the chat's window of them), the attempts
 * from the host; an import becomes a new session, opened, with Undo to delete it again.
 */
import { useQueryClient } from '@tanstack/react-query'
import { errorMessage, unwrap } from '../../../shared/unwrap'
import { SessionExportSchema } from '../../../shared/ipc-contract'
import { clientFor } from '../../api/client'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import type { MessageWithParts, Session } from '../../api/types'
import { getBridge } from '../../bridge'
import { useUndoToast } from '../../ui/undo-toast-store'
import { exportFileName, toMarkdown, toOpencodeJson } from './session-export'
import { useTransferProblem } from './transfer-store'

/** The largest export file read (opencode's exports of long sessions with attachments run to megabytes). */
const MAX_IMPORT_BYTES = 48 * 1024 * 1024

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = Object.assign(document.createElement('a'), { href: url, download: name })
  a.click()
  // The download has its own copy once it started; the next task is late enough.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

function pickFile(): Promise<File | null> {
  return new Promise((resolve) => {
    const input = Object.assign(document.createElement('input'), { type: 'file', accept: '.json,application/json' })
    input.addEventListener('change', () => resolve(input.files?.[0] ?? null), { once: true })
    input.addEventListener('cancel', () => resolve(null), { once: true })
    input.click()
  })
}

export function useSessionTransfer(onOpen: (sessionID: string) => void) {
  const scope = useScope()
  const qc = useQueryClient()
  const setProblem = useTransferProblem((s) => s.setProblem)
  const showUndo = useUndoToast((s) => s.show)

  async function exportAs(sessionID: string, kind: 'md' | 'json') {
    setProblem(null)
    try {
      const c = clientFor(scope.directory)
      const session = unwrap('session.get', await c.session.get({ sessionID })) as Session
      const messages = unwrap('session.messages', await c.session.messages({ sessionID })) as MessageWithParts[]
      if (kind === 'json') return download(exportFileName(session, 'json'), toOpencodeJson(session, messages), 'application/json')
      const attempts = await getBridge().invoke('attempts.list', { sessionID })
      download(exportFileName(session, 'md'), toMarkdown(session, messages, attempts), 'text/markdown')
    } catch (err) {
      setProblem(`The session could not be exported: ${errorMessage(err)}`)
    }
  }

  async function importFromFile() {
    setProblem(null)
    const file = await pickFile()
    if (!file) return
    if (file.size > MAX_IMPORT_BYTES) return setProblem(`${file.name} is over ${MAX_IMPORT_BYTES / 1024 / 1024} MB: too large to import.`)
    let data
    try {
      data = SessionExportSchema.parse(JSON.parse(await file.text()))
    } catch {
      return setProblem(`${file.name} is not an opencode session export (the JSON that “opencode export” or Retake’s “Export as opencode JSON” writes).`)
    }
    try {
      const out = await getBridge().invoke('sessions.import', { directory: scope.directory, data })
      await qc.invalidateQueries({ queryKey: queryKeys.sessions(scope) })
      onOpen(out.sessionID)
      showUndo({
        label: `Imported “${data.info.title || file.name}” (${out.messages} messages)`,
        undo: () =>
          void clientFor(scope.directory)
            .session.delete({ sessionID: out.sessionID })
            .then(() => qc.invalidateQueries({ queryKey: queryKeys.sessions(scope) })),
      })
    } catch (err) {
      setProblem(errorMessage(err))
    }
  }

  return { exportAs, importFromFile }
}
