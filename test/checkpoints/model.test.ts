// Proof by model: seeded random scenarios (trees with folders, symlinks in and out of the root,
// modes, .gitignore; turns that edit, create, delete, rename, swap kinds and install many files;
// user writes during a turn and edits after it) against the real engine, told what each turn's
// tools named as the app tells it (model/turn-tools.ts: known, opaque for a shell, or unknown);
// the oracle (model/oracle.ts) judges every restore and every undo: with known tools the user's
// writes during the turn are kept, with an opaque or unknown turn they go with it (the limit
// docs/checkpoints.md documents). About one seed in seven (model/crash.ts CRASH_SHARE, drawn from the seed)
// runs its restore or its undo in a child process killed at a random step or rename, reopens the
// store so recovery completes it, and is judged the same way: 8 of the 50 CI seeds, hundreds in a
// soak. A failure prints its seed; replay it with
//   SEED=<seed> npm run soak:checkpoints          (prints what the scenario did)
//   RETAKE_CK_MODEL_SEEDS=<seed> npx vitest run --project checkpoints test/checkpoints/model.test.ts
// Classes the engine does not handle yet are off unless named in RETAKE_CK_MODEL_FLAGS (comma list
// or "all"; see model/gen.ts Flags); the coordinator turns each on once its fix is merged.
import { describe, expect, it } from 'vitest'
import { parseFlags, runScenario } from './model/scenario'

const flags = parseFlags(process.env.RETAKE_CK_MODEL_FLAGS)
const FIRST = 1
const COUNT = 50
// Seeds a soak found failing, run after their fix: 741600660 (a folder the turn re-pointed as a
// link out of the project made the restore partial), 750105706 (on XFS: a crash child's report of
// 690 skipped paths, 223 KB, was cut off by its own kill; the store it reopened then kept the soak
// from exiting), 1003, 1124 (another process wrote in place into a file with a second name: the
// model recorded one name), 1247 (that write kept the file's tags: the model recorded none), 2004
// (the turn changed a mode through a second name: the restore's chmod of the other name reported it
// "changed since the plan was made"), 3176 (the during-apply writer threw below a path a step had
// made a file).
const FOUND = [741600660, 750105706, 1003, 1124, 1247, 2004, 3176]
const seeds = process.env.RETAKE_CK_MODEL_SEEDS ? process.env.RETAKE_CK_MODEL_SEEDS.split(',').map(Number) : [...Array.from({ length: COUNT }, (_, i) => FIRST + i), ...FOUND]

describe('the checkpoint engine against its model', () => {
  it(`keeps every promise over ${seeds.length} random scenarios (restore and undo)`, async () => {
    const failures: string[] = []
    for (const seed of seeds) {
      const o = await runScenario(seed, flags)
      if (o.violations.length)
        failures.push(
          `seed ${seed} (replay: SEED=${seed} RETAKE_CK_MODEL_FLAGS=${process.env.RETAKE_CK_MODEL_FLAGS ?? ''} npm run soak:checkpoints)\n  ${o.log.join('\n  ')}\n  ${o.violations.join('\n  ')}`,
        )
    }
    expect(failures, failures.join('\n\n')).toEqual([])
  }, 300_000)
})
