// Mutation testing of the modules that decide what may be written or deleted (npm run
// test:mutation; not part of npm test: it runs the engine's tests once per mutant, for hours on two
// cores at full scope). A surviving mutant in a safety check means no test notices that check
// missing: it gets a test, or a line in docs/checkpoints-mutation.md saying why it is equivalent.
// Narrow a run with --mutate, e.g. `npm run test:mutation -- --mutate core/checkpoints/capture/stat-proof.ts`,
// or run one module against its fast tests in minutes: stryker.rules.config.mjs.
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'core/checkpoints/plan/planner.ts',
    'core/checkpoints/plan/candidates.ts',
    'core/checkpoints/plan/plan-parts.ts',
    'core/checkpoints/plan/ownership.ts',
    'core/checkpoints/plan/attribution.ts',
    'core/checkpoints/capture/stat-proof.ts',
    'core/checkpoints/restore/step-guards.ts',
    'core/checkpoints/restore/recovery-check.ts',
    'core/checkpoints/capture/coverage.ts',
    'core/checkpoints/restore/steps.ts',
    'core/checkpoints/restore/step-env.ts',
    'core/checkpoints/store/verify.ts',
    'core/checkpoints/store/journal.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
}
