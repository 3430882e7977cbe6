// The attachments feature as other features see it: what they import of it, and nothing else.
// (Features reach each other only through this file; .dependency-cruiser.cjs checks it.)
export { AttachmentChip } from './AttachmentChips'
export { AttachButton, ComposerAttachments } from './ComposerAttachments'
export { attachmentInfoOf, buildPromptParts, formatBytes, isInlinedAttachmentPart, sendBlocker, shownAttachment, toPending } from './attachments'
export type { PendingAttachment } from './attachments'
export { readFiles, useAttachmentNotices, useAttachmentsStore, useComposerAttachments } from './attachments-store'
export { composerContentOf } from './composer-content'
export { useFileDrop } from './use-file-drop'
