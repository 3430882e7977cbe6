/**
 * A host that dies in the middle of a retake: it opens the app on an existing test root, plans the
 * retake of a turn (keeping the files named in KEEP), runs it through `retake.run`, and SIGKILLs
 * itself right after the journal records the phase named in KILL_AT — as a crash or a power cut
 * would. Run by test/integration/retake-host.test.ts.
 */
import { startCoreApp } from './core-fixture'

const [root, sessionID, messageID, killAt, keepCsv] = process.argv.slice(2)

const app = await startCoreApp({
  root,
  core: {
    afterRetakePhase: (phase) => {
      if (phase === killAt) process.kill(process.pid, 'SIGKILL')
    },
  },
})
const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID } } })
const keepPaths = new Set(keepCsv ? keepCsv.split(',') : [])
const keep = plan.actions.filter((a) => keepPaths.has(a.path)).map((a) => a.id)
await app.call('retake.run', {
  directory: app.project,
  sessionID,
  clickedID: messageID,
  model: { providerID: 'fake', modelID: 'echo-2' },
  files: { planId: plan.planId, overwrite: [], keep },
})
// Reaching here means the phase never came: the parent test fails on the exit code.
process.exit(3)
