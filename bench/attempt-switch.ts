// Switching attempts on a real-sized change: a turn that rewrote 300 files and created 200 is
// retaken, then "continue from this attempt" goes back and forth. Prints the plan's time (what the
// restore sheet waits for; the budget is under a second) and the whole switch's
// (files both ways and the conversation replayed), per switch and as medians.
//
//   npm run bench:attempts [-- --switches N]
import { startCoreApp, tree, waitSealed } from '../test/support/core-fixture'

const arg = process.argv.indexOf('--switches')
const SWITCHES = arg > 0 ? Number(process.argv[arg + 1]) : 6
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const MODIFIED = 300
const CREATED = 200

async function main() {
  const files: Record<string, string> = {}
  for (let i = 0; i < MODIFIED; i++) files[`src/f${i}.txt`] = `file ${i}\n`.repeat(40)
  const app = await startCoreApp({ git: true, files })
  try {
    const sessionID = (await app.client.session.create({})).data!.id
    const work = `BASH for f in src/f*.txt; do echo changed >> "$f"; done; mkdir -p gen; for i in $(seq 1 ${CREATED}); do echo new $i > gen/n$i.txt; done`
    const r = await app.client.session.prompt({ sessionID, parts: [{ type: 'text', text: work }] })
    const userID = (r.data!.info as { parentID: string }).parentID
    await waitSealed(app, sessionID, userID)
    const changed = tree(app.project)
    const first = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    console.log(`turn changed ${first.actions.length} paths; retaking it`)
    app.fake.script({ kind: 'text', text: 'nothing to change this time' })
    await app.call('retake.run', {
      directory: app.project,
      sessionID,
      clickedID: userID,
      model: { providerID: 'fake', modelID: 'echo' },
      files: { planId: first.planId },
      edit: { text: 'just talk' },
    })
    await waitSealed(app, sessionID, userID)

    const plans: number[] = []
    const switches: number[] = []
    for (let i = 0; i < SWITCHES; i++) {
      const [attempt] = await app.call('attempts.list', { sessionID })
      const t0 = performance.now()
      const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
      const t1 = performance.now()
      const out = await app.call('attempts.continue', {
        directory: app.project,
        sessionID,
        messageID: userID,
        at: attempt!.at,
        files: { planId: plan.planId, overwrite: [], keep: [] },
      })
      const t2 = performance.now()
      if (out.status !== 'done') throw new Error(out.error)
      plans.push(t1 - t0)
      switches.push(t2 - t0)
      const toBig = i % 2 === 0
      console.log(
        `switch ${i + 1} (${toBig ? 'to the 500-file attempt' : 'back to the small one'}): plan ${(t1 - t0).toFixed(0)} ms (${plan.actions.length} paths), whole switch ${(t2 - t0).toFixed(0)} ms`,
      )
      if (toBig && JSON.stringify(tree(app.project)) !== JSON.stringify(changed)) throw new Error('the files are not the attempt’s')
    }
    console.log(`\nplan: median ${median(plans).toFixed(0)} ms (max ${Math.max(...plans).toFixed(0)}; target < 1000 ms)`)
    console.log(`whole switch: median ${median(switches).toFixed(0)} ms (max ${Math.max(...switches).toFixed(0)})`)
  } finally {
    await app.stop()
  }
}

void main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
