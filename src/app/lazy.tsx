// What the shell opens on demand (src/ui/deferred.tsx): the chat, settings, the project picker
// (which a window with its project open never shows).
import { deferred } from '../ui/deferred'

// The chat itself (timeline, markdown, composer) is needed at once but not for the first paint: its
// chunk is asked for as soon as this module runs, so it downloads and parses while the shell boots
// and its data is fetched (a longer wait than the chunk), instead of delaying the shell.
const chatView = import('../features/chat/ChatView')
// Handled where it is used (LoadFailed); this only keeps an early failure from being reported as unhandled.
chatView.catch(() => {})
export const ChatView = deferred(() => chatView.then((m) => m.ChatView))
export const SettingsDialog = deferred(() => import('../features/settings/SettingsDialog').then((m) => m.SettingsDialog))
export const ProjectPicker = deferred(() => import('../features/sessions/ProjectPicker').then((m) => m.ProjectPicker))
