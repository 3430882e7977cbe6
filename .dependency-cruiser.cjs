/**
 * The layers, checked on every `npm test` (npm run lint:boundaries):
 *   shared/  the contract and the pure logic both sides run  ← imports no other layer
 *   core/    the Electron-free host                          ← shared
 *   electron/ and web/  the two shells over core             ← core, shared (never each other)
 *   src/     the renderer                                    ← shared only (never the host)
 * Inside the renderer, src/api and src/ui sit under the features: they never import one.
 */
const LAYERS = ['shared', 'core', 'electron', 'web', 'src']
const outside = (allowed) => `^(${LAYERS.filter((l) => !allowed.includes(l)).join('|')})/`

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-stands-alone',
      severity: 'error',
      comment: 'shared/ is imported by both sides: it imports neither.',
      from: { path: '^shared/' },
      to: { path: outside(['shared']) },
    },
    {
      name: 'core-is-electron-free',
      severity: 'error',
      comment: 'core/ runs under both shells and in Node tests: no shell, no renderer.',
      from: { path: '^core/' },
      to: { path: outside(['shared', 'core']) },
    },
    {
      name: 'core-never-loads-electron',
      severity: 'error',
      from: { path: '^(core|shared|web)/' },
      to: { path: '^electron$', dependencyTypes: ['npm', 'npm-dev', 'core', 'unknown', 'undetermined'] },
    },
    {
      name: 'checkpoint-engine-through-its-index',
      severity: 'error',
      comment: 'The engine (its Engine object, stores, steps) is private to core/checkpoints: the host uses the store that index.ts opens.',
      from: { path: '^(core|electron|web)/', pathNot: '^core/checkpoints/' },
      to: { path: '^core/checkpoints/', pathNot: '^core/checkpoints/index\\.ts$' },
    },
    // Inside the engine, four parts, each on the ones below it (docs/checkpoints.md "Map"):
    //   store/ ← capture/ ← plan/ ← restore/ ← the facade (index.ts, checkpoint-store.ts, worker.ts)
    // A part imports the parts below it and the shared types (types.ts), never a part above it nor
    // the facade. Type-only imports count too (see no-circular below).
    {
      name: 'checkpoint-store-is-the-base',
      severity: 'error',
      comment: 'The store (blobs, snapshots, records, journal, lock, roots) knows nothing of capturing, planning or restoring.',
      from: { path: '^core/checkpoints/store/' },
      to: { path: '^core/checkpoints/(capture|plan|restore)/' },
    },
    {
      name: 'checkpoint-capture-under-plan',
      severity: 'error',
      comment: 'Capture records the roots into the store; what a plan or a restore does is above it.',
      from: { path: '^core/checkpoints/capture/' },
      to: { path: '^core/checkpoints/(plan|restore)/' },
    },
    {
      name: 'checkpoint-plan-under-restore',
      severity: 'error',
      comment: 'A plan writes nothing: it never reaches the code that performs a restore.',
      from: { path: '^core/checkpoints/plan/' },
      to: { path: '^core/checkpoints/restore/' },
    },
    {
      name: 'checkpoint-parts-under-the-facade',
      severity: 'error',
      comment: 'index.ts and the worker entry compose the parts; no part imports them.',
      from: { path: '^core/checkpoints/(store|capture|plan|restore)/' },
      to: { path: '^core/checkpoints/(index|worker|worker-contract|checkpoint-store)\\.ts$' },
    },
    {
      name: 'electron-shell',
      severity: 'error',
      comment: 'The desktop shell wires core/ into Electron; browser mode is a sibling.',
      from: { path: '^electron/' },
      to: { path: outside(['shared', 'core', 'electron']) },
    },
    {
      name: 'web-shell',
      severity: 'error',
      comment: 'The browser-mode host wires core/ into HTTP; it never touches Electron.',
      from: { path: '^web/' },
      to: { path: outside(['shared', 'core', 'web']) },
    },
    {
      name: 'renderer-talks-through-the-bridge',
      severity: 'error',
      comment: 'The renderer reaches the host only through the bridge and the contract.',
      from: { path: '^src/' },
      to: { path: outside(['shared', 'src']) },
    },
    {
      name: 'api-and-ui-under-features',
      severity: 'error',
      comment: 'src/api and src/ui are what features build on: they import no feature.',
      from: { path: '^src/(api|ui|bridge)/' },
      to: { path: '^src/(features|app)/' },
    },
    {
      name: 'features-under-the-app',
      severity: 'error',
      comment: 'The app shell composes features; a feature never imports the shell.',
      from: { path: '^src/features/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'features-meet-through-their-index',
      severity: 'error',
      comment:
        "A feature uses another only through that feature's index.ts (what it offers the others); a lazy import() of a chunk (each folder's lazy.tsx) may name the module. package.json's sideEffects (CSS only) lets the bundler drop what an index offers and a chunk does not use, so the first load does not grow.",
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/index\\.ts$'], dependencyTypesNot: ['dynamic-import'] },
    },
    // Every kind of import counts: a type-only one is still two modules that can only be read
    // together, and a lazy import() (a chunk, src/ui/deferred.tsx) that points back still ties them.
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle of imports of any kind (static, type-only, lazy).',
      from: {},
      to: { circular: true },
    },
    { name: 'not-to-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true } },
    // electron is a devDependency by electron-builder's rule: the runtime provides it.
    {
      name: 'no-dev-deps-in-the-app',
      severity: 'error',
      comment: 'What ships may not need a devDependency at run time.',
      from: { path: '^(shared|core|electron|web|src)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'], pathNot: '^node_modules/electron/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    exclude: { path: '\\.css$' },
  },
}
