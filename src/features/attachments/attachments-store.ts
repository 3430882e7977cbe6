/**
 * Composer attachments per session (same key as drafts: `draftKey(directory, sessionID)`), in memory
 * only: the bytes of a picked file must never be written to localStorage, but they should survive
 * switching sessions and a failed send, like the draft does. Limit messages live here too so they stay
 * next to the composer they belong to.
 */
import { create } from 'zustand'
import { addWithLimits, toPending, type PendingAttachment } from './attachments'

interface AttachmentsState {
  byKey: Record<string, PendingAttachment[]>
  /** The last refusal messages per key (limits), cleared by the next successful add or a remove. */
  notices: Record<string, string[]>
  add(key: string, incoming: PendingAttachment[]): void
  remove(key: string, id: string): void
  /** Takes every attachment of a key out (on send); `restore` puts them back if the send failed. */
  take(key: string): PendingAttachment[]
  restore(key: string, list: PendingAttachment[]): void
  dismissNotices(key: string): void
}

const EMPTY: PendingAttachment[] = []

export const useAttachmentsStore = create<AttachmentsState>()((set, get) => ({
  byKey: {},
  notices: {},
  add: (key, incoming) =>
    set((s) => {
      const { attachments, errors } = addWithLimits(s.byKey[key] ?? EMPTY, incoming)
      const notices = { ...s.notices }
      if (errors.length) notices[key] = errors
      else delete notices[key]
      return { byKey: { ...s.byKey, [key]: attachments }, notices }
    }),
  remove: (key, id) =>
    set((s) => {
      const notices = { ...s.notices }
      delete notices[key]
      return { byKey: { ...s.byKey, [key]: (s.byKey[key] ?? EMPTY).filter((a) => a.id !== id) }, notices }
    }),
  take: (key) => {
    const list = get().byKey[key] ?? EMPTY
    set((s) => {
      const byKey = { ...s.byKey }
      delete byKey[key]
      return { byKey }
    })
    return list
  },
  restore: (key, list) =>
    set((s) => {
      // Whatever the user attached meanwhile stays; the failed message's files go back in front.
      const current = s.byKey[key] ?? EMPTY
      const ids = new Set(current.map((a) => a.id))
      return { byKey: { ...s.byKey, [key]: [...list.filter((a) => !ids.has(a.id)), ...current] } }
    }),
  dismissNotices: (key) =>
    set((s) => {
      const notices = { ...s.notices }
      delete notices[key]
      return { notices }
    }),
}))

/** The attachments of one composer (a stable empty list when there are none). */
export function useComposerAttachments(key: string): PendingAttachment[] {
  return useAttachmentsStore((s) => s.byKey[key] ?? EMPTY)
}

const NO_NOTICES: string[] = []
export function useAttachmentNotices(key: string): string[] {
  return useAttachmentsStore((s) => s.notices[key] ?? NO_NOTICES)
}

/** Reads browser File objects into pending attachments (bytes decide the type, not the name). */
export async function readFiles(files: Iterable<File>): Promise<PendingAttachment[]> {
  const out: PendingAttachment[] = []
  for (const f of files) {
    const pending = toPending({ name: f.name, type: f.type, bytes: await bytesOf(f) })
    if (pending.kind === 'image' && !(await decodes(pending))) pending.problem = 'looks like an image but could not be decoded.'
    out.push(pending)
  }
  return out
}

/**
 * Whether the browser can decode the image. Magic bytes only say what a file claims to be; opencode
 * decodes images itself and a corrupt one fails the whole turn after the prompt was accepted (the
 * message is then lost), so such a file is refused here. Without createImageBitmap (tests), trusted.
 */
async function decodes(a: { bytes: Uint8Array; mime: string }): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return true
  try {
    const bitmap = await createImageBitmap(new Blob([a.bytes as BlobPart], { type: a.mime }))
    bitmap.close()
    return true
  } catch {
    return false
  }
}

function bytesOf(f: Blob): Promise<Uint8Array> {
  if (typeof f.arrayBuffer === 'function') return f.arrayBuffer().then((b) => new Uint8Array(b))
  // Older DOMs (and some test environments) only have FileReader.
  return new Promise((resolve, reject) => {
    const r = new FileReader()
    r.onload = () => resolve(new Uint8Array(r.result as ArrayBuffer))
    r.onerror = () => reject(r.error)
    r.readAsArrayBuffer(f)
  })
}
