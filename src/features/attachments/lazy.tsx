// The attachment viewer, opened on demand (src/ui/deferred.tsx) from a chip.
import { deferred } from '../../ui/deferred'

export const AttachmentViewer = deferred(() => import('./AttachmentViewer').then((m) => m.AttachmentViewer))
