import { defineConfig } from 'vitest/config'

// The tests StrykerJS runs against each mutant of the engine's safety modules (npm run
// test:mutation): the checkpoint engine's own tests and the pure unit tests, without the soak-sized
// and timing-heavy files, which would multiply the run's hours without killing more mutants.
export default defineConfig({
  // As in vitest.mutation-rules.config.ts: @parcel/watcher loads once per process, so under the
  // runner's worker threads only the first test file would have a change journal. One process each.
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
    include: ['test/checkpoints/**/*.test.ts'],
    exclude: [
      'test/checkpoints/large-roots.test.ts',
      'test/checkpoints/install-restore.test.ts',
      'test/checkpoints/first-capture.test.ts',
      // The change journal's tests: timing-bound under Stryker's instrumentation (its sandbox), and
      // the journal decides nothing about what may be written or deleted.
      'test/checkpoints/watch.test.ts',
      'test/checkpoints/journal-default.test.ts',
      'test/checkpoints/journal-blind.test.ts',
    ],
    // Stryker runs vitest in worker threads, where process.umask cannot be set (one test needs it).
    testNamePattern: '^(?!.*(Watcher mode|not the umask))',
    testTimeout: 120_000,
  },
})
