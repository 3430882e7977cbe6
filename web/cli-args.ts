/** Browser mode's command line, parsed by a pure function so every flag and error is unit-tested. */
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export interface WebCliOptions {
  port: number
  host: string
  dataDir: string
  opencodeConfig: string | null
  project: string | null
  remote: string | null
  help: boolean
}

export const USAGE = `Usage: npm run web -- [options]

  --port N               port to serve on (the URL is printed)                     [default 0: a free port]
  --host ADDR            address to listen on (on loopback the URL names          [default 127.0.0.1]
                         <random>.localhost, this run's own origin)
  --data-dir DIR         where Retake keeps its data                                [default ${defaultDataDir()}]
  --opencode-config FILE an opencode config JSON for the embedded server
  --project DIR          the folder to open
  --remote URL           use an existing opencode server (password in RETAKE_REMOTE_PASSWORD)
  --help                 this text`

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.RETAKE_DATA_DIR) return env.RETAKE_DATA_DIR
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Retake')
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Retake')
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'retake')
}

export function parseWebArgs(argv: string[], cwd = process.cwd()): WebCliOptions {
  // No fixed port: the origin is new each run anyway (a random .localhost name), and a well-known
  // port only tells other processes where to wait for Retake's open tabs once it stops.
  const opts: WebCliOptions = { port: 0, host: '127.0.0.1', dataDir: defaultDataDir(), opencodeConfig: null, project: null, remote: null, help: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = () => {
      const v = inline ?? argv[++i]
      if (v === undefined || (inline === undefined && v.startsWith('--'))) throw new Error(`${flag} needs a value`)
      return v
    }
    switch (flag) {
      case '--port': {
        const v = value()
        const n = Number(v)
        if (!/^\d+$/.test(v) || n > 65535) throw new Error(`--port must be a number from 0 to 65535, got "${v}"`)
        opts.port = n
        break
      }
      case '--host':
        opts.host = value()
        break
      case '--data-dir':
        opts.dataDir = resolve(cwd, value())
        break
      case '--opencode-config':
        opts.opencodeConfig = resolve(cwd, value())
        break
      case '--project':
        opts.project = resolve(cwd, value())
        break
      case '--remote': {
        const v = value()
        let u: URL
        try {
          u = new URL(v)
        } catch {
          throw new Error(`--remote must be a URL like http://127.0.0.1:4096, got "${v}"`)
        }
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`--remote must be http(s), got "${u.protocol}"`)
        opts.remote = u.toString().replace(/\/$/, '')
        break
      }
      case '--help':
      case '-h':
        opts.help = true
        break
      default:
        throw new Error(`Unknown option ${arg}`)
    }
  }
  return opts
}

/**
 * The command that starts browser mode again as this run was started (shown by a tab that outlived
 * its run): `npm start` when it came through it, else `npm run web` with the same options.
 */
export function startCommandOf(argv: string[], npmScript: string | undefined): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)
  const args = argv.map(quote).join(' ')
  if (npmScript === 'start') return args ? `npm start -- ${args}` : 'npm start'
  return args ? `npm run web -- ${args}` : 'npm run web'
}
