// What the chat opens on demand (src/ui/deferred.tsx): the changes and checkpoints panels, provider keys, and
// the dialog before a link leaves the app.
import { deferred } from '../../ui/deferred'

export const ChangesPanel = deferred(() => import('../checkpoints/ChangesPanel').then((m) => m.ChangesPanel))
export const CheckpointsPanel = deferred(() => import('../checkpoints/CheckpointsPanel').then((m) => m.CheckpointsPanel))
export const ProviderKeysDialog = deferred(() => import('../models/ProviderKeysDialog').then((m) => m.ProviderKeysDialog))
export const LinkDialog = deferred(() => import('./LinkDialog').then((m) => m.LinkDialog))
