// Bundles the Electron main process and the preload with esbuild into dist-electron/ (CommonJS:
// the sandboxed preload cannot load ES modules, and main loads faster as one file).
import { build } from 'esbuild'

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, external: ['electron'], logLevel: 'info' }
await build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist-electron/main.cjs' })
await build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist-electron/preload.cjs' })
