// The restore sheet with its diffs, opened on demand (src/ui/deferred.tsx) by a retake or a switch.
import { deferred } from '../../ui/deferred'

export const RestoreSheet = deferred(() => import('../checkpoints/RestoreSheet').then((m) => m.RestoreSheet))
