// Retake overhead: from ↺ (the window's one `retake.run` call to the host) to the request reaching
// the provider, against the bare SDK sequence a client without Retake's safety would send
// (revert → part.delete → prompt, straight to opencode). Same server, same fake LLM, same session
// shape, alternated run by run; median of 7 (`--runs N`). The difference is what Retake's
// transaction costs: the saved payload, the checks, the journal, the checkpoint before the prompt.
//
//   npm run bench:retake
import { createOpencodeClient, type OpencodeClient } from '@opencode-ai/sdk/v2/client'
import { startCoreApp, waitSealed, type CoreApp } from '../test/support/core-fixture'

const runsArg = process.argv.indexOf('--runs')
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 7
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const MODEL = { providerID: 'fake', modelID: 'echo' }

/** A session with one answered, sealed turn (files in the project, so the checkpoint is real). */
async function answeredTurn(app: CoreApp): Promise<{ sessionID: string; userID: string }> {
  const sessionID = (await app.client.session.create({})).data!.id
  const r = await app.client.session.prompt({ sessionID, model: MODEL, parts: [{ type: 'text', text: 'a question to retake' }] })
  const userID = (r.data!.info as { parentID: string }).parentID
  await waitSealed(app, sessionID, userID)
  return { sessionID, userID }
}

/** Milliseconds from `start` to the next chat request reaching the fake LLM. */
async function untilRequest(app: CoreApp, before: number, t0: number): Promise<number> {
  for (;;) {
    const req = app.fake.chatRequests()[before]
    if (req) return req.time - t0
    await new Promise((r) => setTimeout(r, 1))
  }
}

async function viaRetake(app: CoreApp): Promise<number> {
  const { sessionID, userID } = await answeredTurn(app)
  const before = app.fake.chatRequests().length
  const t0 = Date.now()
  const done = app.call('retake.run', { directory: app.project, sessionID, clickedID: userID, model: MODEL })
  const ms = await untilRequest(app, before, t0)
  await done
  return ms
}

async function viaBareSdk(app: CoreApp, direct: OpencodeClient): Promise<number> {
  const { sessionID, userID } = await answeredTurn(app)
  const message = (await direct.session.message({ sessionID, messageID: userID })).data!
  const before = app.fake.chatRequests().length
  const t0 = Date.now()
  await direct.session.revert({ sessionID, messageID: userID })
  for (const p of message.parts) await direct.part.delete({ sessionID, messageID: userID, partID: p.id })
  const done = direct.session.prompt({ sessionID, messageID: userID, model: MODEL, parts: [{ type: 'text', text: 'a question to retake' }] })
  const ms = await untilRequest(app, before, t0)
  await done
  return ms
}

async function main() {
  const files: Record<string, string> = {}
  for (let i = 0; i < 200; i++) files[`src/file-${i}.ts`] = `export const v${i} = ${i}\n`.repeat(20)
  const app = await startCoreApp({ git: true, files })
  try {
    const conn = app.core.connection
    const direct = createOpencodeClient({ baseUrl: conn.url!, directory: app.project, headers: { authorization: conn.authorization() } })
    await viaRetake(app) // warm-up: the first capture of the project, caches
    await viaBareSdk(app, direct)
    const retake: number[] = []
    const bare: number[] = []
    for (let i = 0; i < RUNS; i++) {
      retake.push(await viaRetake(app))
      bare.push(await viaBareSdk(app, direct))
    }
    const r = median(retake)
    const b = median(bare)
    console.log(`retake overhead · ${RUNS} runs each, alternated · project of 200 files in git · node ${process.version}`)
    console.log('| path | median to the provider | runs (ms) |')
    console.log('|---|---|---|')
    console.log(`| ↺ (retake.run on the host) | ${r} ms | ${retake.join(', ')} |`)
    console.log(`| bare SDK (revert → delete → prompt) | ${b} ms | ${bare.join(', ')} |`)
    // Pair by pair, so a machine that slows down between runs moves both sides of a pair alike.
    const pairs = retake.map((x, i) => x - bare[i]!)
    console.log(`| overhead | ${median(pairs)} ms median of pairs (target ≤ 50 ms) · medians ${r - b} ms · ratio ${(r / Math.max(1, b)).toFixed(2)}× | ${pairs.join(', ')} |`)
  } finally {
    await app.stop()
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
