// Starts a worker thread whose entry is TypeScript (browser mode under tsx, vitest; the built app
// loads bundled JavaScript instead). Node 20 does not apply the module hooks that `--import tsx`
// registers inside a worker to the worker's own entry, so the thread registers tsx itself first.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.tsEntry)
