// Long randomized run of the checkpoint engine against its model (test/checkpoints/model).
//   npm run soak:checkpoints                     # 10 minutes of fresh seeds, flagged classes off
//   SOAK_SECONDS=3600 npm run soak:checkpoints   # an hour
//   SEED=1234 npm run soak:checkpoints           # replay one seed, printing what it did
//   RETAKE_CK_MODEL_FLAGS=all npm run soak:checkpoints   # turn on classes (comma list, or all)
import { LOCAL_FS } from '../core/checkpoints/capture/change-journal'
import { fsTypeOf } from '../core/checkpoints/capture/stat-proof'
import { parseFlags, runScenario } from '../test/checkpoints/model/scenario'

const flags = parseFlags(process.env.RETAKE_CK_MODEL_FLAGS)
const one = process.env.SEED

async function main(): Promise<void> {
  if (one !== undefined) {
    const o = await runScenario(Number(one), flags)
    console.log(o.log.join('\n'))
    console.log(o.violations.length ? o.violations.join('\n') : `seed ${one}: ok`)
    process.exitCode = o.violations.length ? 1 : 0
    return
  }
  const until = Date.now() + Number(process.env.SOAK_SECONDS ?? 600) * 1000
  let runs = 0
  const failing: number[] = []
  let seed = Number(process.env.SOAK_START ?? Date.now() % 1e9)
  // Some failures need the file system they were found on (soak-filesystems.sh sets TMPDIR).
  const tmpFs = process.env.TMPDIR ? fsName(process.env.TMPDIR) : null
  const where = tmpFs ? `TMPDIR=<a ${tmpFs} folder> ` : ''
  console.log(`soak from seed ${seed}, flags ${JSON.stringify(flags)}${tmpFs ? `, in ${process.env.TMPDIR} (${tmpFs})` : ''}`)
  while (Date.now() < until) {
    const o = await runScenario(seed, flags)
    runs++
    if (o.violations.length) {
      failing.push(seed)
      console.log(
        `FAIL seed ${seed} (replay: ${where}SEED=${seed} RETAKE_CK_MODEL_FLAGS=${process.env.RETAKE_CK_MODEL_FLAGS ?? ''} npm run soak:checkpoints)\n  ${o.violations.slice(0, 5).join('\n  ')}`,
      )
    }
    seed++
  }
  console.log(`${runs} scenarios, ${failing.length} failing${failing.length ? ': ' + failing.join(' ') : ''}`)
  process.exitCode = failing.length ? 1 : 0
}

function fsName(dir: string): string {
  const type = fsTypeOf(dir)
  return type === undefined ? 'unknown' : (LOCAL_FS.get(type) ?? `type 0x${type.toString(16)}`)
}

void main()
