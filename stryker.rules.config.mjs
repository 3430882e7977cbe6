// One safety module's mutation run against the narrow test set (vitest.mutation-rules.config.ts):
// `MUTATE=restore/step-guards npx stryker run stryker.rules.config.mjs --concurrency 1`. Minutes, not the
// hours of the whole scope; its score is a floor of the full set's. Reports go to
// reports/mutation/<part>/<module>.json|html.
import base from './stryker.config.mjs'

const mod = process.env.MUTATE ?? 'restore/step-guards'
export default {
  ...base,
  mutate: [`core/checkpoints/${mod}.ts`],
  vitest: { configFile: 'vitest.mutation-rules.config.ts', related: false },
  htmlReporter: { fileName: `reports/mutation/${mod}.html` },
  jsonReporter: { fileName: `reports/mutation/${mod}.json` },
  tempDirName: `.stryker-tmp-${mod.replace('/', '-')}`,
}
