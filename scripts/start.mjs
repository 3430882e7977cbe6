// `npm start`: the desktop app when Electron can run here, otherwise browser mode.
// Electron needs its runtime binary (downloaded by the electron package's install step) and a
// display; on a machine without either, browser mode serves the same UI on 127.0.0.1.
import { spawnSync, spawn } from 'node:child_process'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const passThrough = process.argv.slice(2)

function electronBinary() {
  try {
    const path = require('electron')
    return typeof path === 'string' ? path : null
  } catch (err) {
    return { reason: String(err.message).split('\n')[0] }
  }
}

/** Runs a build step quietly: its output is shown only when it fails (it would bury the URL). */
function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', shell: process.platform === 'win32', maxBuffer: 64 * 1024 * 1024 })
  if (r.status !== 0) {
    process.stdout.write(r.stdout ?? '')
    process.stderr.write(r.stderr ?? '')
    console.error(`Retake: \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal}).`)
    process.exit(r.status ?? 1)
  }
}

const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
// Without a display the desktop app cannot open a window: do not even try to fetch its runtime.
const bin = hasDisplay ? electronBinary() : { reason: 'not needed' }
if (typeof bin === 'string') {
  console.log('Retake: building the desktop app…')
  run('npm', ['run', '--silent', 'build'])
  const child = spawn(bin, ['.', ...passThrough], { stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
} else {
  const why = hasDisplay ? `the Electron runtime is not installed (${bin.reason})` : 'there is no display (no DISPLAY or WAYLAND_DISPLAY)'
  console.log(`Retake: starting browser mode, because ${why}. Building…`)
  run(process.execPath, ['scripts/build-renderer.mjs'])
  const child = spawn(process.execPath, ['--import', 'tsx', 'web/cli.ts', ...passThrough], { stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
}
