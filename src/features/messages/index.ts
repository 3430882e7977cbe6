// A message's parts as the timeline and the attempt history show them: text, tool cards, diffs, ANSI output.
// This index is what other features use of it (the only way in: .dependency-cruiser.cjs).
export { PartView } from './PartView'
export { MessageFolderProvider, messageFolder } from './message-folder'
