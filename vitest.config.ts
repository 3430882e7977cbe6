import { defineConfig } from 'vitest/config'

// One runner, six projects: pure logic (node), renderer components (jsdom), the checkpoint engine in
// temporary workspaces, integration against a real opencode server with the fake LLM, end-to-end in
// Chromium through browser mode, and the security attacks (also in Chromium). Groups run one after
// another (groupOrder), so the heavy ones never compete with each other for the two cores.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['test/unit/**/*.test.ts'], exclude: ['test/unit/renderer/**'] },
      },
      {
        extends: true,
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/unit/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['test/unit/renderer/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'checkpoints',
          environment: 'node',
          include: ['test/checkpoints/**/*.test.ts'],
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
          // Each file starts its own opencode server (~600 MB RSS); two at a time fits 2 cores.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 90_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Attacks on Retake (model output, agent files, other pages), driven like the e2e tests.
        extends: true,
        test: {
          name: 'security',
          environment: 'node',
          include: ['test/security/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 90_000,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
})
