/**
 * Finds the opencode server binary: inside the packaged app's resources, or in node_modules during
 * development, and checks that it answers `--version` with the version Retake was built against.
 */
import { execFile, type ExecFileException } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'

export interface BinaryLocation {
  /** The app is packaged: process.resourcesPath (Electron) or undefined. */
  resourcesPath?: string
  /** The app's root folder (where node_modules lives in development). */
  appRoot: string
  platform?: NodeJS.Platform
  arch?: string
  /**
   * Prefer the AVX2-less `-baseline` build on x64. Defaults to on when packaged (the build stages the
   * baseline binary so old CPUs work) and off in development (npm installs both; the full build is faster).
   */
  preferBaseline?: boolean
}

const PLATFORM_WORD: Partial<Record<NodeJS.Platform, string>> = { darwin: 'darwin', linux: 'linux', win32: 'windows' }

/** The npm package names that may hold the binary for this platform, most preferred first. */
export function candidatePackages(platform: NodeJS.Platform, arch: string, preferBaseline = false): string[] {
  const word = PLATFORM_WORD[platform]
  if (!word) return []
  const base = `opencode-${word}-${arch}`
  if (arch !== 'x64') return [base]
  return preferBaseline ? [`${base}-baseline`, base] : [base, `${base}-baseline`]
}

export function binaryFileName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'opencode.exe' : 'opencode'
}

/** Every path the binary may be at, in the order they are tried. */
export function candidatePaths(loc: BinaryLocation): string[] {
  const platform = loc.platform ?? process.platform
  const arch = loc.arch ?? process.arch
  const file = binaryFileName(platform)
  const paths: string[] = []
  if (loc.resourcesPath) paths.push(join(loc.resourcesPath, 'bin', file))
  for (const pkg of candidatePackages(platform, arch, loc.preferBaseline ?? Boolean(loc.resourcesPath))) {
    paths.push(join(loc.appRoot, 'node_modules', pkg, 'bin', file))
  }
  return paths
}

export function resolveOpencodeBinary(loc: BinaryLocation, exists: (p: string) => boolean = isExecutableFile): string {
  const paths = candidatePaths(loc)
  const found = paths.find((p) => exists(p))
  if (!found) {
    const fix = loc.resourcesPath
      ? 'This installation of Retake is incomplete: reinstall it.'
      : 'Run `npm install` (it installs the opencode-ai package with the binary for this platform).'
    throw new Error(`The opencode server binary was not found. Looked in:\n${paths.map((p) => `  ${p}`).join('\n')}\n${fix}`)
  }
  return found
}

function isExecutableFile(p: string): boolean {
  try {
    return existsSync(p) && statSync(p).isFile()
  } catch {
    return false
  }
}

/** Runs `<binary> --version`; rejects with a clear message when it does not start or answers wrong. */
export function checkOpencodeVersion(binary: string, expected?: string, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, ['--version'], { timeout: timeoutMs, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout) => {
      if (err) return reject(new Error(`The opencode server binary at ${binary} does not start: ${startFailure(err)}`))
      const version = stdout.trim().split(/\s+/).pop() ?? ''
      if (!/^\d+\.\d+\.\d+/.test(version)) return reject(new Error(`The opencode binary at ${binary} answered "${stdout.trim()}" to --version`))
      if (expected && version !== expected) {
        return reject(new Error(`The opencode binary at ${binary} is version ${version}; Retake needs ${expected}`))
      }
      resolve(version)
    })
  })
}

/** Why a binary did not answer, in words a user can act on. */
function startFailure(err: ExecFileException): string {
  // An illegal instruction is the non-baseline x64 build on a CPU without AVX2.
  if (err.signal === 'SIGILL') return 'it stopped on an illegal instruction (this CPU may need the -baseline build of opencode)'
  if (err.code === 'EACCES') return 'it is not executable (permission denied)'
  if (err.code === 'ENOENT') return 'the file is missing'
  if (err.killed) return 'it did not answer --version in time'
  return err.message
}
