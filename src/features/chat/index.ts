// The chat panel: the timeline, the composer, slash commands and the send/stop of a turn. It composes the other features.
// This index is what other features use of it (the only way in: .dependency-cruiser.cjs).
export { SLASH_COMMANDS } from './slash-commands'
export { isBusy } from './status-line'
export { useChatPanels } from './panels-store'
