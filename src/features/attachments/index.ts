// Attachments: what a picked or dropped file becomes in a prompt (lossless inline text or a file part), chips and the viewer.
// This index is what other features use of it (the only way in: .dependency-cruiser.cjs).
export { AttachmentChip } from './AttachmentChips'
export { AttachButton, ComposerAttachments } from './ComposerAttachments'
export { attachmentInfoOf, buildPromptParts, formatBytes, isInlinedAttachmentPart, sendBlocker, shownAttachment, toPending } from './attachments'
export type { PendingAttachment } from './attachments'
export { readFiles, useAttachmentNotices, useAttachmentsStore, useComposerAttachments } from './attachments-store'
export { composerContentOf } from './composer-content'
export { useFileDrop } from './use-file-drop'
