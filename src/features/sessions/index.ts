// Sessions and projects: the session list, marks and notifications of turns that ended off screen, the project picker.
// This index is what other features use of it (the only way in: .dependency-cruiser.cjs).
export { useNotifyStore } from './notify-store'
export { useSessionErrors } from './session-errors-store'
export { useSessionTransfer } from './use-session-transfer'
