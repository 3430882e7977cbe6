/**
 * The embedded server's life follows the app's. Two guards:
 *  - a watchdog: on POSIX the server runs under a tiny `sh` wrapper that holds a pipe from Retake
 *    on its stdin; when Retake dies (even by SIGKILL) the pipe closes and the wrapper stops the
 *    server (TERM, then KILL after 3 s). Node cannot set the parent-death signal itself, and
 *    Electron's fuses forbid running itself as node, so a shell does it.
 *  - a record: the server's pid, start time and binary are written in the data dir; on the next
 *    start a server recorded as ours that still runs (same pid AND start time AND command line) is
 *    stopped — the watchdog's backstop, and the only guard on Windows.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { commandLineOf, processStartTime, sameProcess } from '../process-identity'

export interface ServerRecord {
  pid: number
  start: string | null
  binary: string
}

const recordFile = (dataDir: string) => join(dataDir, 'opencode-server.json')

/** The wrapper (argv: binary and its arguments). It prints the server's pid first. */
export const WATCHDOG_SH = [
  'exec 3<&0',
  '"$@" </dev/null 3<&- &',
  'c=$!',
  'echo "retake-opencode-pid $c"',
  "trap 'kill -TERM $c 2>/dev/null' TERM INT HUP",
  // `read` is a builtin: killing the subshell ends it (no stray reader is left behind).
  '{ while read -r _ <&3; do :; done; kill -TERM $c 2>/dev/null; sleep 3; kill -KILL $c 2>/dev/null; } &',
  'w=$!',
  'exec 3<&-',
  's=0',
  'while :; do wait $c; s=$?; kill -0 $c 2>/dev/null || break; done',
  'kill $w 2>/dev/null',
  'exit $s',
].join('\n')

/** How to spawn `binary args`: under the watchdog where there is a POSIX shell. */
export function guardedCommand(binary: string, args: string[], platform: NodeJS.Platform = process.platform): { command: string; args: string[]; wrapped: boolean } {
  if (platform === 'win32' || !existsSync('/bin/sh')) return { command: binary, args, wrapped: false }
  return { command: '/bin/sh', args: ['-c', WATCHDOG_SH, 'retake-opencode', binary, ...args], wrapped: true }
}

/** The server's pid from the wrapper's first line, or null. */
export function parsePidLine(stdout: string): number | null {
  const m = /^retake-opencode-pid (\d+)$/m.exec(stdout)
  return m ? Number(m[1]) : null
}

export function recordServer(dataDir: string, pid: number, binary: string): void {
  const rec: ServerRecord = { pid, start: processStartTime(pid), binary }
  writeFileSync(recordFile(dataDir), JSON.stringify(rec), { mode: 0o600 })
}

export function clearServerRecord(dataDir: string, pid?: number): void {
  const rec = readRecord(dataDir)
  if (!rec || pid === undefined || rec.pid === pid) rmSync(recordFile(dataDir), { force: true })
}

function readRecord(dataDir: string): ServerRecord | null {
  try {
    const r = JSON.parse(readFileSync(recordFile(dataDir), 'utf8')) as ServerRecord
    return typeof r.pid === 'number' && typeof r.binary === 'string' ? r : null
  } catch {
    return null
  }
}

/** A recorded server that is still running and is ours, by pid, start time and command line. */
export function recordedOrphan(dataDir: string): ServerRecord | null {
  const rec = readRecord(dataDir)
  if (!rec || rec.pid === process.pid || !sameProcess(rec.pid, rec.start)) return null
  const cmd = commandLineOf(rec.pid)
  // Where the command line cannot be read, the start time alone must have matched.
  if (cmd !== null && !cmd.includes(basename(rec.binary))) return null
  if (cmd === null && rec.start === null) return null
  return rec
}

/** Stop a server an earlier run of Retake left behind; resolves once it is gone (or after 5 s). */
export async function stopRecordedOrphan(dataDir: string, log: (line: string) => void): Promise<boolean> {
  const orphan = recordedOrphan(dataDir)
  if (!orphan) {
    clearServerRecord(dataDir)
    return false
  }
  log(`[retake] stopping opencode ${orphan.pid} left running by an earlier run\n`)
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(orphan.pid, s)
    } catch {
      /* already gone */
    }
  }
  signal('SIGTERM')
  for (let waited = 0; sameProcess(orphan.pid, orphan.start); waited += 50) {
    if (waited === 2000) signal('SIGKILL')
    if (waited >= 5000) break
    await new Promise((r) => setTimeout(r, 50))
  }
  clearServerRecord(dataDir, orphan.pid)
  return true
}
