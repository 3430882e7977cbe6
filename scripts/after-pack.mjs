// electron-builder afterPack hook: refuses to hand over an app without its opencode server. It runs
// after extraResources are copied and before electron-builder flips the fuses (`electronFuses` in
// electron-builder.yml) and signs, so a broken package fails the build instead of a user's launch.
import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { binaryName, pinnedOpencodeVersion } from './before-pack.mjs'
import { NATIVE_STAGE_DIR } from './stage-native.mjs'

const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal']
const OS_KEYS = { linux: 'linux', darwin: 'mac', mas: 'mac', win32: 'win' }

/** Checks resources/bin/opencode in a packed app; runs `--version` when this machine can run it. */
export function checkPackedOpencode({ resourcesDir, platform, arch, log = console.log }) {
  const bin = join(resourcesDir, 'bin', binaryName(platform))
  let st
  try {
    st = statSync(bin)
  } catch {
    throw new Error(`The packaged app has no opencode server binary at ${bin} (see scripts/before-pack.mjs)`)
  }
  if (!st.isFile() || st.size < 1024 * 1024) throw new Error(`${bin} is not an opencode binary (${st.size} bytes)`)
  // extraResources keeps the mode on most hosts, but a Windows host building for Linux/macOS may not.
  if (platform !== 'win32') chmodSync(bin, 0o755)
  const expected = pinnedOpencodeVersion()
  const runnable = (platform === process.platform || (platform === 'mas' && process.platform === 'darwin')) && arch === process.arch
  if (!runnable) {
    log(`opencode binary present (${(st.size / 1e6).toFixed(0)} MB); --version not run: built for ${platform}-${arch} on ${process.platform}-${process.arch}`)
    return { bin, version: null }
  }
  const out = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } }).trim()
  const version = out.split(/\s+/).pop()
  if (version !== expected) throw new Error(`${bin} answers --version with "${out}"; Retake is pinned to ${expected}`)
  log(`opencode ${version} answers --version at ${bin}`)
  return { bin, version }
}

/**
 * Puts the staged native modules (scripts/stage-native.mjs) in resources/native/. Here and not in
 * extraResources: electron-builder leaves out every folder named node_modules there, and a module's
 * dependencies are found only through one.
 */
export function copyNative({ resourcesDir, platform, arch, stageRoot = NATIVE_STAGE_DIR, log = console.log }) {
  const from = join(stageRoot, `${OS_KEYS[platform]}-${arch}`)
  if (!existsSync(from)) return log(`no native modules staged for ${platform}-${arch}`)
  cpSync(from, join(resourcesDir, 'native'), { recursive: true })
  log(`copied ${from} → resources/native`)
}

export default async function afterPack(context) {
  const resourcesDir = context.packager.getResourcesDir(context.appOutDir)
  const platform = context.electronPlatformName
  const arch = ARCH_NAMES[context.arch]
  checkPackedOpencode({ resourcesDir, platform, arch, log: (line) => console.log(`  • opencode: ${line}`) })
  copyNative({ resourcesDir, platform, arch, log: (line) => console.log(`  • native: ${line}`) })
}
