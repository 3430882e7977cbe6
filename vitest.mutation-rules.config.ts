import { defineConfig } from 'vitest/config'

// A narrow test set for one module's mutation run (`npx stryker run --mutate core/checkpoints/<f>.ts
// --vitest.configFile vitest.mutation-rules.config.ts`, or RULES=<files> to narrow further): the
// *-rule tests written to kill its mutants, and the fast engine tests that reach the safety checks.
// A score it gives is a floor of the full set's (vitest.mutation.config.ts), in minutes not hours.
const only = process.env.RULES?.split(',').filter(Boolean)
export default defineConfig({
  test: {
    environment: 'node',
    include: only ?? [
      'test/checkpoints/*-rule.test.ts',
      'test/checkpoints/safety.test.ts',
      'test/checkpoints/stat-proof.test.ts',
      'test/checkpoints/type-swaps.test.ts',
      'test/checkpoints/keep-choices.test.ts',
      'test/checkpoints/restore-races.test.ts',
    ],
    testNamePattern: '^(?!.*(Watcher mode|not the umask))',
    testTimeout: 120_000,
  },
})
