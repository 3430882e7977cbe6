import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { candidatePaths, checkOpencodeVersion, resolveOpencodeBinary } from '../../../core/server/opencode-binary'
import { binaryName, opencodePackagesFor, stageDirFor } from '../../../scripts/before-pack.mjs'

const PINNED = '1.18.33'
const posix = process.platform !== 'win32'
let dir: string

/** A fake opencode: a shell script that prints what a test needs to its `--version`. */
function stub(name: string, body: string, mode = 0o755): string {
  const file = join(dir, name)
  writeFileSync(file, `#!/bin/sh\n${body}\n`)
  chmodSync(file, mode)
  return file
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'retake-binary-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('resolveOpencodeBinary: packaged', () => {
  it('finds resources/bin/opencode before anything in node_modules', () => {
    const res = join(dir, 'resources')
    mkdirSync(join(res, 'bin'), { recursive: true })
    writeFileSync(join(res, 'bin', 'opencode'), 'x')
    expect(resolveOpencodeBinary({ resourcesPath: res, appRoot: join(res, 'app.asar'), platform: 'linux', arch: 'x64' })).toBe(join(res, 'bin', 'opencode'))
  })
  it('prefers the baseline build on x64 when packaged, the full build in development', () => {
    const packaged = candidatePaths({ resourcesPath: '/r', appRoot: '/r/app.asar', platform: 'linux', arch: 'x64' })
    expect(packaged[1]).toContain('opencode-linux-x64-baseline')
    const dev = candidatePaths({ appRoot: '/a', platform: 'linux', arch: 'x64' })
    expect(dev[0]).toBe('/a/node_modules/opencode-linux-x64/bin/opencode')
  })
  it('tells a user of an installed app to reinstall when the binary is missing', () => {
    expect(() => resolveOpencodeBinary({ resourcesPath: '/gone', appRoot: '/gone/app.asar', platform: 'darwin', arch: 'arm64' }, () => false)).toThrow(
      /not found[\s\S]*\/gone\/bin\/opencode[\s\S]*reinstall/,
    )
  })
})

describe('resolveOpencodeBinary: development', () => {
  it('looks in node_modules with opencode’s platform words and says to run npm install', () => {
    expect(candidatePaths({ appRoot: '/a', platform: 'win32', arch: 'arm64' })).toEqual([join('/a', 'node_modules', 'opencode-windows-arm64', 'bin', 'opencode.exe')])
    expect(() => resolveOpencodeBinary({ appRoot: '/nowhere', platform: 'linux', arch: 'arm64' }, () => false)).toThrow(/npm install/)
  })
  it('knows no package for an unsupported platform', () => {
    expect(candidatePaths({ appRoot: '/a', platform: 'aix', arch: 'x64' })).toEqual([])
  })
})

describe.skipIf(!posix)('checkOpencodeVersion', () => {
  it('accepts the pinned version', async () => {
    await expect(checkOpencodeVersion(stub('good', `echo ${PINNED}`), PINNED)).resolves.toBe(PINNED)
  })
  it('names both versions when the binary is another one', async () => {
    await expect(checkOpencodeVersion(stub('other', 'echo 1.2.3'), PINNED)).rejects.toThrow(/is version 1\.2\.3; Retake needs 1\.18\.33/)
  })
  it('refuses an answer that is not a version', async () => {
    await expect(checkOpencodeVersion(stub('chatty', 'echo hello'), PINNED)).rejects.toThrow(/answered "hello"/)
  })
  it('says the binary does not start when it fails', async () => {
    await expect(checkOpencodeVersion(stub('broken', 'exit 3'), PINNED)).rejects.toThrow(/does not start/)
  })
  it('says a binary without the execute bit is not executable', async () => {
    await expect(checkOpencodeVersion(stub('noexec', `echo ${PINNED}`, 0o644), PINNED)).rejects.toThrow(/not executable/)
  })
  it('points at the baseline build when the CPU refuses an instruction', async () => {
    await expect(checkOpencodeVersion(stub('sigill', 'kill -ILL $$'), PINNED)).rejects.toThrow(/-baseline build/)
  })
  it('gives up on a binary that never answers', async () => {
    await expect(checkOpencodeVersion(stub('hang', 'sleep 5'), PINNED, 300)).rejects.toThrow(/in time/)
  })
})

describe('before-pack staging plan', () => {
  it('stages the baseline build first on x64 and the only build on arm64', () => {
    expect(opencodePackagesFor('linux', 'x64')).toEqual(['opencode-linux-x64-baseline', 'opencode-linux-x64'])
    expect(opencodePackagesFor('darwin', 'arm64')).toEqual(['opencode-darwin-arm64'])
    expect(opencodePackagesFor('win32', 'x64')).toEqual(['opencode-windows-x64-baseline', 'opencode-windows-x64'])
    expect(() => opencodePackagesFor('linux', 'ia32')).toThrow(/only x64 and arm64/)
  })
  it('uses electron-builder’s os words for the staging folder and .exe on Windows', () => {
    expect(stageDirFor('darwin', 'arm64', '/s')).toBe(join('/s', 'mac-arm64'))
    expect(stageDirFor('win32', 'x64', '/s')).toBe(join('/s', 'win-x64'))
    expect(binaryName('win32')).toBe('opencode.exe')
    expect(binaryName('linux')).toBe('opencode')
  })
})
