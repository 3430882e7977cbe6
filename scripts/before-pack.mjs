// electron-builder beforePack hook: stages the opencode server binary for the platform and arch being
// built into release/.opencode-stage/<os>-<arch>/, which electron-builder.yml's extraResources copies
// to resources/bin/. The binary comes from node_modules when npm installed it (the host's own
// platform), otherwise from `npm pack <package>@<pinned version>` (building for another platform or
// arch), cached in release/.opencode-cache/. On x64 the `-baseline` build (no AVX2) is preferred so
// the app runs on older CPUs too.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packedPackage } from './npm-pack.mjs'
import { stageNative } from './stage-native.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const STAGE_DIR = join(ROOT, 'release', '.opencode-stage')

/** electron-builder's Arch enum (builder-util) by number. */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal']
/** electron-builder's `${os}` macro per Electron platform name. */
const OS_KEYS = { linux: 'linux', darwin: 'mac', mas: 'mac', win32: 'win' }
/** opencode's own platform words in its npm package names. */
const OPENCODE_WORDS = { linux: 'linux', darwin: 'darwin', mas: 'darwin', win32: 'windows' }

/** The pinned opencode version: package.json `retake.opencodeVersion`, else the opencode-ai dependency. */
export function pinnedOpencodeVersion(root = ROOT) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const version = pkg.retake?.opencodeVersion ?? pkg.dependencies?.['opencode-ai']
  if (!version || !/^\d+\.\d+\.\d+/.test(version)) throw new Error(`No exact opencode version pinned in package.json (got "${version}")`)
  return version
}

/** npm packages that hold the binary for a target, most preferred first (baseline first on x64). */
export function opencodePackagesFor(platform, arch) {
  const word = OPENCODE_WORDS[platform]
  if (!word) throw new Error(`Retake does not package for platform "${platform}"`)
  if (arch !== 'x64' && arch !== 'arm64') throw new Error(`opencode ships no binary for ${platform}-${arch} (only x64 and arm64)`)
  const base = `opencode-${word}-${arch}`
  return arch === 'x64' ? [`${base}-baseline`, base] : [base]
}

export function binaryName(platform) {
  return platform === 'win32' ? 'opencode.exe' : 'opencode'
}

/** Where extraResources picks the staged binary up for a target (mirrors `${os}-${arch}` in the yml). */
export function stageDirFor(platform, arch, stageRoot = STAGE_DIR) {
  return join(stageRoot, `${OS_KEYS[platform]}-${arch}`)
}

function installedPackageBinary(root, pkgName, version, file) {
  const dir = join(root, 'node_modules', pkgName)
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    const bin = join(dir, 'bin', file)
    if (pkg.version === version && statSync(bin).isFile()) return bin
  } catch {
    // not installed (npm only installs the host's optional dependency)
  }
  return null
}

function packedPackageBinary(pkgName, version, file, log) {
  const dir = packedPackage(pkgName, version, log)
  const bin = dir && join(dir, 'bin', file)
  return bin && existsSync(bin) ? bin : null
}

/**
 * Stages the binary for one target and returns where it came from. Pure of electron-builder so the
 * packaging check and a person debugging a build can call it directly.
 */
export function stageOpencode({ platform, arch, root = ROOT, stageRoot = STAGE_DIR, allowFetch = true, log = console.log }) {
  const version = pinnedOpencodeVersion(root)
  const file = binaryName(platform)
  const target = stageDirFor(platform, arch, stageRoot)
  rmSync(target, { recursive: true, force: true })
  mkdirSync(target, { recursive: true })
  const tried = []
  for (const pkgName of opencodePackagesFor(platform, arch)) {
    tried.push(pkgName)
    const source = installedPackageBinary(root, pkgName, version, file) ?? (allowFetch ? packedPackageBinary(pkgName, version, file, log) : null)
    if (!source) continue
    const dest = join(target, file)
    copyFileSync(source, dest)
    chmodSync(dest, 0o755)
    log(`staged ${pkgName}@${version} → ${dest}`)
    return { pkgName, version, source, dest }
  }
  throw new Error(
    `No opencode ${version} binary for ${platform}-${arch}: tried ${tried.join(', ')} in node_modules` +
      (allowFetch ? ' and with `npm pack` (network needed for other platforms).' : ' (fetching disabled).'),
  )
}

/** The hook electron-builder calls once per platform and arch, before copying the app. */
export default async function beforePack(context) {
  const platform = context.electronPlatformName
  const arch = ARCH_NAMES[context.arch]
  if (arch === 'universal') throw new Error('Build mac per arch (x64, arm64): a universal app would need both opencode binaries merged')
  stageOpencode({ platform, arch, log: (line) => console.log(`  • opencode: ${line}`) })
  stageNative({ platform, arch, log: (line) => console.log(`  • native: ${line}`) })
}
