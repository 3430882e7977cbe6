// Stages the native modules the host loads at run time — @parcel/watcher (the checkpoint engine's
// change journal) and @napi-rs/xattr (extended attributes through a restore) — for one target into
// release/.native-stage/<os>-<arch>/node_modules/, which electron-builder.yml's extraResources copies
// to resources/native/ (outside the asar: a .node file must be a real file to be loaded). The host
// finds them there through core/native-modules.ts. Each module's JavaScript and its runtime
// dependencies come from node_modules (they are the same on every platform); its prebuilt binary
// package comes from node_modules when npm installed it (the host's own platform), otherwise from
// `npm pack`. A module that cannot be staged is reported and left out: the engine then works
// without it (a full walk at every capture; attributes listed as not restored).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packedPackage } from './npm-pack.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const NATIVE_STAGE_DIR = join(ROOT, 'release', '.native-stage')
const OS_KEYS = { linux: 'linux', darwin: 'mac', mas: 'mac', win32: 'win' }
/** Build-time only dependencies of the modules (headers for compiling from source). */
const BUILD_ONLY = new Set(['node-addon-api'])

/** The native modules and the name of each one's prebuilt package for a target (null: none exists). */
export function nativeModulesFor(platform, arch) {
  const os = platform === 'mas' ? 'darwin' : platform
  return [
    // Electron apps run against glibc on Linux (the AppImage and .deb targets).
    { name: '@parcel/watcher', binary: os === 'linux' ? `@parcel/watcher-linux-${arch}-glibc` : `@parcel/watcher-${os}-${arch}` },
    // Windows has no extended attributes of this kind: the module ships no build for it.
    { name: '@napi-rs/xattr', binary: os === 'win32' ? null : os === 'linux' ? `@napi-rs/xattr-linux-${arch}-gnu` : `@napi-rs/xattr-${os}-${arch}` },
  ]
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))

/** Copies a package and, recursively, the runtime dependencies it declares, from node_modules. */
function copyWithDependencies(root, name, destModules, seen = new Set()) {
  if (seen.has(name) || BUILD_ONLY.has(name)) return
  seen.add(name)
  const from = join(root, 'node_modules', name)
  if (!existsSync(join(from, 'package.json'))) throw new Error(`${name} is not installed (run npm ci)`)
  cpSync(from, join(destModules, name), { recursive: true, dereference: true })
  for (const dep of Object.keys(readJson(join(from, 'package.json')).dependencies ?? {})) copyWithDependencies(root, dep, destModules, seen)
}

export function stageNative({ platform, arch, root = ROOT, stageRoot = NATIVE_STAGE_DIR, allowFetch = true, log = console.log }) {
  const target = join(stageRoot, `${OS_KEYS[platform]}-${arch}`)
  const modules = join(target, 'node_modules')
  rmSync(target, { recursive: true, force: true })
  mkdirSync(modules, { recursive: true })
  const staged = []
  for (const { name, binary } of nativeModulesFor(platform, arch)) {
    if (!binary) {
      log(`${name}: none for ${platform}-${arch}, left out`)
      continue
    }
    const version = readJson(join(root, 'node_modules', name, 'package.json')).optionalDependencies?.[binary]
    const installed = join(root, 'node_modules', binary)
    const source = existsSync(join(installed, 'package.json')) ? installed : allowFetch && version ? packedPackage(binary, version, log) : null
    if (!source) {
      log(`${name}: no ${binary}@${version} for ${platform}-${arch}, left out (the app works without it)`)
      continue
    }
    copyWithDependencies(root, name, modules)
    cpSync(source, join(modules, binary), { recursive: true, dereference: true })
    log(`staged ${name} with ${binary}`)
    staged.push(name)
  }
  return { dir: target, staged }
}
