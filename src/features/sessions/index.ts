// The sessions feature as other features see it: what they import of it, and nothing else.
// (Features reach each other only through this file; .dependency-cruiser.cjs checks it.)
export { useNotifyStore } from './notify-store'
export { turnTexts, useSessionCommands } from './use-session-commands'
