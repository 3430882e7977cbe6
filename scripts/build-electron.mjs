// Bundles the Electron main process, the preload and the checkpoint engine's thread with esbuild
// into dist-electron/ (CommonJS: the sandboxed preload cannot load ES modules, and main loads faster
// as one file). The engine's thread is its own file next to main.cjs: core/checkpoint-engine.ts
// starts it from there (inside app.asar, which Electron's worker threads read).
import { build } from 'esbuild'

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external: ['electron'],
  logLevel: 'info',
  // The sources are ES modules that find their siblings by import.meta.url; in a CommonJS bundle
  // that is the bundle's own file.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
}
await build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist-electron/main.cjs' })
await build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist-electron/preload.cjs' })
await build({ ...common, entryPoints: ['core/checkpoints/worker.ts'], outfile: 'dist-electron/checkpoint-worker.cjs' })
