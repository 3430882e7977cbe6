// The packaging check from `npm run package:check`, run by `npm test`: an unpacked Linux app built with
// a stand-in Electron runtime (see scripts/package-check.ts for what is and is not checkable here).
import { describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { ASAR_BUDGET_BYTES, runPackageCheck } from '../../scripts/package-check'

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('packaged app (linux-x64, unpacked)', () => {
  it('holds only the built app in its asar, ships a working opencode, flips the fuses and starts its own server', async () => {
    const lines: string[] = []
    // `npm test` has just built the renderer, and other integration files may be serving dist/renderer,
    // so only the (unshared) main, preload and engine bundles are rebuilt here; a missing renderer build fails loudly.
    const report = await runPackageCheck({ build: 'electron', log: (line) => lines.push(line) })
    expect(report.asarBytes).toBeLessThan(ASAR_BUDGET_BYTES)
    expect(report.asarFiles).toContain('/dist-electron/main.cjs')
    expect(report.asarFiles).toContain('/dist-electron/preload.cjs')
    // The checkpoint engine's thread, loaded from inside the asar (covered by its integrity check).
    expect(report.asarFiles).toContain('/dist-electron/checkpoint-worker.cjs')
    expect(report.asarFiles).toContain('/dist/renderer/index.html')
    expect(report.asarFiles.every((f) => !f.includes('node_modules') && !f.endsWith('.map'))).toBe(true)
    expect(report.opencodeVersion).toBe('1.18.33')
    expect(report.fuses).toMatchObject({ RunAsNode: false, OnlyLoadAppFromAsar: true, EnableEmbeddedAsarIntegrityValidation: true })
    expect(lines.join('\n')).toMatch(/STAND-IN/)
    // The packaged main bundle itself started the packaged opencode and served the UI.
    expect(report.smoke).toMatchObject({ serverState: 'ready', serverVersion: '1.18.33', csp: true, traversalStatus: 400, mainLog: true })
    expect(report.smoke?.menu).toEqual(['File', 'Edit', 'View', 'Window', 'Help'])
    // …and a package without its binary, or with another version, ends on a message a user can act on.
    expect(report.smoke?.brokenBinaryErrors?.missing).toMatch(/not found[\s\S]*reinstall it/)
    expect(report.smoke?.brokenBinaryErrors?.wrongVersion).toMatch(/is version 0\.0\.1; Retake needs 1\.18\.33/)
    // The temp package is removed afterwards; only the staged binary in release/ (gitignored) stays.
    expect(existsSync(report.outDir)).toBe(false)
  }, 120_000)
})
