/**
 * `npm run web` skips the renderer's build when nothing it is built from changed: the hash of its
 * inputs must move with any change a build would see, and only then.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { inputsHash } from '../../../scripts/build-renderer.mjs'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'retake-build-'))
  mkdirSync(join(root, 'src', 'features'), { recursive: true })
  mkdirSync(join(root, 'shared'))
  writeFileSync(join(root, 'src', 'features', 'a.tsx'), 'export const a = 1\n')
  writeFileSync(join(root, 'shared', 'b.ts'), 'export const b = 2\n')
  writeFileSync(join(root, 'vite.config.ts'), 'export default {}\n')
  writeFileSync(join(root, 'package-lock.json'), '{}\n')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('the renderer is rebuilt only when its inputs changed', () => {
  it('is the same hash for the same files', () => {
    expect(inputsHash(root)).toBe(inputsHash(root))
  })

  it.each([
    ['a source edited', () => writeFileSync(join(root, 'src', 'features', 'a.tsx'), 'export const a = 2\n')],
    ['the shared contract edited', () => writeFileSync(join(root, 'shared', 'b.ts'), 'export const b = 3\n')],
    ['a file added', () => writeFileSync(join(root, 'src', 'c.css'), 'body{}\n')],
    ['a file renamed', () => renameSync(join(root, 'shared', 'b.ts'), join(root, 'shared', 'c.ts'))],
    ['the build config edited', () => writeFileSync(join(root, 'vite.config.ts'), 'export default { base: "/" }\n')],
    ['the locked packages changed', () => writeFileSync(join(root, 'package-lock.json'), '{"v":2}\n')],
  ])('changes when %s', (_what, change) => {
    const before = inputsHash(root)
    change()
    expect(inputsHash(root)).not.toBe(before)
  })

  it('ignores files outside the inputs (tests, the built output)', () => {
    const before = inputsHash(root)
    mkdirSync(join(root, 'dist', 'renderer'), { recursive: true })
    writeFileSync(join(root, 'dist', 'renderer', 'index.html'), '<!doctype html>')
    mkdirSync(join(root, 'test'))
    writeFileSync(join(root, 'test', 'x.test.ts'), '')
    expect(inputsHash(root)).toBe(before)
  })
})
