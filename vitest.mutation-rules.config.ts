import { defineConfig } from 'vitest/config'

// A narrow test set for one module's mutation run (`npx stryker run --mutate core/checkpoints/<f>.ts
// --vitest.configFile vitest.mutation-rules.config.ts`, or RULES=<files> to narrow further): the
// *-rule tests written to kill its mutants, and the fast engine tests that reach the safety checks.
// A score it gives is a floor of the full set's (vitest.mutation.config.ts), in minutes not hours.
const only = process.env.RULES?.split(',').filter(Boolean)
export default defineConfig({
  // Stryker's vitest runner asks for worker threads; @parcel/watcher (the change journal) loads
  // once per process and fails in every later thread ("did not self-register"), so under threads
  // no test after the first file has a journal and its paths go untested. One process per file.
  plugins: [
    {
      name: 'forks-for-the-change-journal',
      configureVitest({ project }) {
        project.config.pool = 'forks'
      },
    },
  ],
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
