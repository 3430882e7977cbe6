// Child for the orphan test: Retake's host side, reduced to the embedded server. It starts the real
// opencode and prints its pid; the test then kills this process with SIGKILL (no cleanup runs).
import { EmbeddedOpencodeServer } from '../../../core/server/opencode-server'
import { resolveOpencodeBinary } from '../../../core/server/opencode-binary'

const [dataDir, configPath, appRoot] = process.argv.slice(2) as [string, string, string]
const server = new EmbeddedOpencodeServer({ binary: resolveOpencodeBinary({ appRoot }), dataDir, configPath, extraEnv: { npm_config_registry: 'http://127.0.0.1:9/' } })
await server.start()
process.stdout.write(`server ${server.pid}\n`)
setInterval(() => {}, 60_000)
