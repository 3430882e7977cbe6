/**
 * `npm run web`: Retake in a browser. Starts the same core as the desktop app (embedded opencode
 * server or --remote), serves the built renderer on 127.0.0.1 and prints the URL to open.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRetakeCore } from '../core/retake-core'
import { findAppRoot, readVersions } from '../core/app-paths'
import { parseWebArgs, startCommandOf, USAGE } from './cli-args'
import { startWebHost } from './host'

async function main() {
  let opts
  try {
    opts = parseWebArgs(process.argv.slice(2))
  } catch (err) {
    console.error(`retake: ${(err as Error).message}\n\n${USAGE}`)
    process.exit(2)
  }
  if (opts.help) {
    console.log(USAGE)
    return
  }
  const appRoot = findAppRoot(fileURLToPath(new URL('.', import.meta.url)))
  const { version, opencodeVersion } = readVersions(appRoot)
  const core = createRetakeCore({
    mode: 'browser',
    dataDir: opts.dataDir,
    appRoot,
    version,
    opencodeVersion,
    opencodeConfigPath: opts.opencodeConfig,
    remote: opts.remote ? { url: opts.remote, password: process.env.RETAKE_REMOTE_PASSWORD } : undefined,
    initialProject: opts.project ?? undefined,
    startCommand: startCommandOf(process.argv.slice(2), process.env.npm_lifecycle_event),
    log: (line) => console.error(line),
  })
  const host = await startWebHost({ core, staticDir: join(appRoot, 'dist', 'renderer'), port: opts.port, host: opts.host, token: process.env.RETAKE_WEB_TOKEN })
  // A short banner whose last line is the URL: the UI shows the server's progress, so the URL is
  // printed before the server is ready, and only a failure is printed after it.
  console.log(`Retake ${version} · browser mode · data in ${opts.dataDir}`)
  console.log(`Retake (browser mode) is running at ${host.url}`)
  core.start().catch((err) => console.error(`opencode server failed to start: ${(err as Error).message}`))
  let closing = false
  const shutdown = async () => {
    if (closing) return
    closing = true
    await host.close()
    await core.stop()
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

void main()
