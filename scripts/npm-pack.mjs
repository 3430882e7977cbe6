// `npm pack` of one package version, for staging what npm did not install on this machine (the
// opencode binary and native modules of another platform or arch when packaging for it).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const CACHE_DIR = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'release', '.opencode-cache')

/**
 * Fetches `<pkg>@<version>` with `npm pack` (integrity-checked by npm), extracted and cached in
 * release/.opencode-cache/; returns the package's folder, or null when it cannot be had.
 */
export function packedPackage(pkgName, version, log) {
  const dir = join(CACHE_DIR, `${pkgName.replace('/', '+')}-${version}`)
  const pkgDir = join(dir, 'package')
  if (existsSync(join(pkgDir, 'package.json'))) return pkgDir
  mkdirSync(dir, { recursive: true })
  log(`npm pack ${pkgName}@${version}`)
  try {
    const args = ['pack', `${pkgName}@${version}`, '--pack-destination', dir, '--loglevel', 'error']
    const opts = { stdio: ['ignore', 'pipe', 'pipe'] }
    // Under `npm run`, npm's own CLI script is known: run it with this node, no shell (paths with spaces
    // stay intact on Windows, where npm.cmd would need one).
    const npmCli = process.env.npm_execpath
    if (npmCli && /\.c?js$/.test(npmCli)) execFileSync(process.execPath, [npmCli, ...args], opts)
    else if (process.platform === 'win32')
      execFileSync(
        'npm.cmd',
        args.map((a) => `"${a}"`),
        { ...opts, shell: true },
      )
    else execFileSync('npm', args, opts)
  } catch (err) {
    const why =
      String(err.stderr ?? '')
        .split('\n')
        .find((l) => /error/i.test(l)) ?? err.message
    log(`  ${pkgName}@${version} could not be fetched: ${why.trim()}`)
    return null
  }
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'))
  if (!tgz) return null
  // bsdtar ships with macOS and Windows 10+, GNU tar with Linux; both read npm's gzip tarballs.
  execFileSync('tar', ['-xzf', tgz], { cwd: dir, stdio: 'ignore' })
  return existsSync(join(pkgDir, 'package.json')) ? pkgDir : null
}
