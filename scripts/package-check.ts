/**
 * `npm run package:check`: packages Retake as an unpacked Linux app (`electron-builder --linux dir`)
 * with a stand-in Electron runtime — the real one cannot be downloaded here — and checks what a user
 * would get: the asar holds exactly the built entry files and stays under its size budget, the opencode
 * binary in resources/bin answers the pinned version and is what the packaged resolver picks, the fuses
 * are flipped, and the packaged main bundle starts its own server (package-check.smoke.ts).
 * Also run by test/integration/package-check.test.ts, so `npm test` covers it.
 */
import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { extractFile, listPackage, statFile } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { checkOpencodeVersion, resolveOpencodeBinary } from '../core/server/opencode-binary'
import { smokeBrokenBinary, smokePackagedMain, type SmokeReport } from './package-check.smoke'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const require = createRequire(import.meta.url)

/** The asar is the main, preload and checkpoint-engine bundles, the renderer and package.json; 4 MB leaves room to grow. */
export const ASAR_BUDGET_BYTES = 4 * 1024 * 1024
/** Anything that means sources, tests, dev files or dependencies leaked into the package. */
const FORBIDDEN = [/\/node_modules\//, /\.map$/, /^\/(src|electron|test|scripts|bench|docs|build)\//, /\.tsx?$/, /tsconfig|vite\.config|vitest|\.test\./, /^\/release\//]

export interface PackageCheckOptions {
  /** 'all': renderer + electron bundles (the npm script); 'electron': only the esbuild bundles, for when
   *  the renderer was just built and other tests may be serving dist/renderer; 'none': use what is there. */
  build?: 'all' | 'electron' | 'none'
  keep?: boolean
  /** Start the packaged main bundle (stand-in Electron module) and wait for its own opencode server. */
  smoke?: boolean
  log?: (line: string) => void
}

export interface PackageCheckReport {
  outDir: string
  asarBytes: number
  asarFiles: string[]
  opencodeBinary: string
  opencodeVersion: string
  fuses: Record<string, boolean>
  smoke: SmokeReport | null
  seconds: number
}

/** The fuses electron-builder.yml sets, as @electron/fuses option names → on/off. */
export function fuseExpectations(root = ROOT): Record<string, boolean> {
  const yaml = require('js-yaml') as { load(text: string): unknown }
  const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as { electronFuses?: Record<string, boolean> }
  const f = config.electronFuses ?? {}
  const names: Record<string, keyof typeof FuseV1Options> = {
    runAsNode: 'RunAsNode',
    enableCookieEncryption: 'EnableCookieEncryption',
    enableNodeOptionsEnvironmentVariable: 'EnableNodeOptionsEnvironmentVariable',
    enableNodeCliInspectArguments: 'EnableNodeCliInspectArguments',
    enableEmbeddedAsarIntegrityValidation: 'EnableEmbeddedAsarIntegrityValidation',
    onlyLoadAppFromAsar: 'OnlyLoadAppFromAsar',
    grantFileProtocolExtraPrivileges: 'GrantFileProtocolExtraPrivileges',
  }
  // The hardening the app relies on: a missing key would silently keep Electron's permissive default.
  const required: Record<string, boolean> = {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
  }
  for (const [key, want] of Object.entries(required)) assert(f[key] === want, `electron-builder.yml electronFuses.${key} must be ${want}`)
  return Object.fromEntries(
    Object.entries(f)
      .filter(([k]) => k in names)
      .map(([k, v]) => [names[k], v]),
  )
}

/**
 * A folder electron-builder accepts as an unpacked Electron for Linux: an `electron` executable
 * (renamed to `retake`), the license files and `resources/`. The executable is a script that refuses
 * to run, carrying Electron's fuse sentinel and a wire with Electron's defaults so the fuse flip runs.
 */
export function standInElectron(dir: string, version: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true })
  const sentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
  // Wire v1, 9 fuses: RunAsNode on, cookie encryption off, NODE_OPTIONS on, inspect on, asar integrity
  // off, only-asar off, V8 snapshot off, file:// privileges on, wasm trap handlers on.
  const wire = Buffer.concat([Buffer.from(sentinel), Buffer.from([1, 9]), Buffer.from('101100011')])
  const script = Buffer.from(
    '#!/bin/sh\n# Stand-in for the Electron runtime used by `npm run package:check`; it cannot run the app.\necho "Retake package:check stand-in: no Electron runtime here" >&2\nexit 1\n# ',
  )
  writeFileSync(join(dir, 'electron'), Buffer.concat([script, wire, Buffer.from('\n')]))
  chmodSync(join(dir, 'electron'), 0o755)
  writeFileSync(join(dir, 'LICENSE'), 'Stand-in for Electron’s LICENSE (MIT)\n')
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<!doctype html><title>stand-in</title>\n')
  writeFileSync(join(dir, 'version'), `${version}\n`)
}

function run(cmd: string, args: string[], log: (line: string) => void): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(cmd, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: '0' } }, (err, stdout, stderr) => {
      const out = `${stdout}${stderr}`
      if (err) return reject(new Error(`${cmd} ${args.join(' ')} failed:\n${out}`))
      for (const line of out.split('\n')) if (/•|error|warn/i.test(line)) log(`    ${line.trim()}`)
      resolvePromise(out)
    })
  })
}

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), base) : [`/${relative(base, join(dir, e.name)).split('\\').join('/')}`],
  )
}

function assert(ok: unknown, message: string): asserts ok {
  if (!ok) throw new Error(`package:check: ${message}`)
}

export async function runPackageCheck(opts: PackageCheckOptions = {}): Promise<PackageCheckReport> {
  const started = Date.now()
  const log = opts.log ?? ((line: string) => console.log(line))
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const pinned: string = pkg.retake?.opencodeVersion ?? pkg.dependencies['opencode-ai']
  const electronVersion: string = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version

  const build = opts.build ?? 'all'
  if (build === 'all') {
    log('• building the renderer (vite) and the main, preload and checkpoint-engine bundles (esbuild)')
    await run(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'], () => {})
  }
  if (build !== 'none') await run(process.execPath, [join(ROOT, 'scripts', 'build-electron.mjs')], () => {})
  assert(statSync(join(ROOT, 'dist', 'renderer', 'index.html')).isFile(), 'dist/renderer is not built (npm run build:renderer)')

  const work = mkdtempSync(join(tmpdir(), 'retake-package-'))
  const dist = join(work, 'electron-dist')
  const outDir = join(work, 'out')
  try {
    standInElectron(dist, electronVersion)
    log(`• packaging with electron-builder --linux dir --x64 (stand-in Electron ${electronVersion} runtime in ${dist})`)
    await run(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'electron-builder', 'cli.js'),
        '--linux',
        'dir',
        '--x64',
        '--publish',
        'never',
        `-c.electronDist=${dist}`,
        `-c.electronVersion=${electronVersion}`,
        `-c.directories.output=${outDir}`,
      ],
      log,
    )
    const unpacked = join(outDir, 'linux-unpacked')
    const resources = join(unpacked, 'resources')
    const asarPath = join(resources, 'app.asar')

    // 1. The asar: exactly package.json, the three bundles (main, preload, the checkpoint engine's
    // thread) and the renderer's files (no maps).
    const entries = listPackage(asarPath, { isPack: false })
    const asarFiles = entries.filter((e) => !('files' in statFile(asarPath, e.slice(1)))).sort()
    const expected = [
      '/package.json',
      '/dist-electron/main.cjs',
      '/dist-electron/preload.cjs',
      '/dist-electron/checkpoint-worker.cjs',
      ...walk(join(ROOT, 'dist', 'renderer'))
        .map((f) => `/dist/renderer${f}`)
        .filter((f) => !f.endsWith('.map')),
    ].sort()
    const leaked = asarFiles.filter((f) => FORBIDDEN.some((re) => re.test(f)))
    assert(leaked.length === 0, `dev or source files in app.asar: ${leaked.join(', ')}`)
    assert(JSON.stringify(asarFiles) === JSON.stringify(expected), `app.asar lists\n  ${asarFiles.join('\n  ')}\nexpected\n  ${expected.join('\n  ')}`)
    const asarBytes = statSync(asarPath).size
    assert(asarBytes < ASAR_BUDGET_BYTES, `app.asar is ${asarBytes} bytes, over the ${ASAR_BUDGET_BYTES}-byte budget`)
    const packedPkg = JSON.parse(extractFile(asarPath, 'package.json').toString('utf8'))
    assert(packedPkg.main === 'dist-electron/main.cjs', `packaged package.json main is ${packedPkg.main}`)
    assert(packedPkg.desktopName === 'retake.desktop', 'packaged package.json has no desktopName (extraMetadata)')
    assert((packedPkg.retake?.opencodeVersion ?? packedPkg.dependencies?.['opencode-ai']) === pinned, 'packaged package.json lost the pinned opencode version')
    log(`✓ app.asar: ${asarFiles.length} files, ${(asarBytes / 1024).toFixed(0)} KiB (budget ${ASAR_BUDGET_BYTES / 1024 / 1024} MiB), no sources, tests, maps or node_modules`)
    for (const f of asarFiles) log(`    ${f}`)

    // 2. resources/: the asar and the opencode binary, nothing unpacked beside them.
    const resourceEntries = readdirSync(resources).sort()
    assert(JSON.stringify(resourceEntries) === JSON.stringify(['app.asar', 'bin', 'native']), `resources/ holds ${resourceEntries.join(', ')}`)
    // The native modules load from resources/native/ as the packaged host loads them (core/native-modules.ts).
    const fromNative = createRequire(join(resources, 'native', 'node_modules', 'index.js'))
    for (const name of ['@parcel/watcher', '@napi-rs/xattr']) {
      const mod = fromNative(name) as Record<string, unknown>
      assert(typeof mod === 'object' && Object.keys(mod).length > 0, `resources/native/${name} does not load`)
    }
    log('✓ resources/native: @parcel/watcher and @napi-rs/xattr load from outside the asar')
    const bin = join(resources, 'bin', 'opencode')
    const st = statSync(bin)
    assert(st.isFile() && (st.mode & 0o111) !== 0, `${bin} is not an executable file`)
    const version = await checkOpencodeVersion(bin, pinned, 60_000)
    log(`✓ resources/bin/opencode: executable, ${(st.size / 1e6).toFixed(0)} MB, answers --version ${version} (pinned ${pinned})`)

    // 3. The packaged resolver, called as main.ts calls it: appRoot = app.getAppPath(), resourcesPath = process.resourcesPath.
    const resolved = resolveOpencodeBinary({ appRoot: asarPath, resourcesPath: resources, platform: 'linux', arch: 'x64' })
    assert(resolved === bin, `the packaged resolver picked ${resolved}, not ${bin}`)
    log(`✓ packaged resolver (resourcesPath=${relative(work, resources)}) → ${relative(work, resolved)}`)

    // 4. Fuses: the stand-in carries a fuse wire, so electron-builder's flip is checked for real; the
    // values on the real Electron binary follow from the same electron-builder.yml.
    const wire = await getCurrentFuseWire(join(unpacked, 'retake'))
    const fuses: Record<string, boolean> = {}
    for (const [name, want] of Object.entries(fuseExpectations(ROOT))) {
      const index = FuseV1Options[name as keyof typeof FuseV1Options]
      const got = wire[index] === 49 // '1'
      assert(got === want, `fuse ${name} is ${got ? 'on' : 'off'} in the packaged stand-in, expected ${want ? 'on' : 'off'}`)
      fuses[name] = got
    }
    log(
      `✓ fuses (electronFuses in electron-builder.yml, flipped on the STAND-IN runtime's fuse wire — the real Electron binary is not on this machine): ${Object.entries(fuses)
        .map(([k, v]) => `${k}=${v ? 'on' : 'off'}`)
        .join(', ')}`,
    )
    let smoke: SmokeReport | null = null
    if (opts.smoke ?? true) {
      smoke = await smokePackagedMain(asarPath, resources, work)
      log(
        `✓ packaged main (from app.asar, stand-in electron module, app.isPackaged): opencode server ${smoke.serverState} ` +
          `(${smoke.serverVersion}) from resources/bin, app:// serves the UI with a CSP and answers a traversal with ${smoke.traversalStatus}, ` +
          `menu ${smoke.menu.join('/')}, logs/main.log written, server stopped on quit — ${smoke.seconds.toFixed(1)} s`,
      )
      const broken = await smokeBrokenBinary(work)
      smoke.brokenBinaryErrors = broken
      log(
        `✓ packaged main with a broken package shows status failed: missing → "${broken.missing.split('\n')[0]} … ${broken.missing.split('\n').pop()}"; wrong version → "${broken.wrongVersion}"`,
      )
    }
    log('• not built here: AppImage, deb, dmg, zip and NSIS need tools downloaded at build time — see docs/packaging.md')
    return { outDir: unpacked, asarBytes, asarFiles, opencodeBinary: bin, opencodeVersion: version, fuses, smoke, seconds: (Date.now() - started) / 1000 }
  } finally {
    if (!opts.keep) rmSync(work, { recursive: true, force: true })
    else log(`• kept ${work}`)
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runPackageCheck({ keep: process.argv.includes('--keep') }).then(
    (r) => console.log(`package:check passed in ${r.seconds.toFixed(1)} s`),
    (err) => {
      console.error((err as Error).message)
      process.exit(1)
    },
  )
}
