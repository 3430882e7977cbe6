// Who a process is: its pid is not enough (pids are reused after a reboot or a long uptime), so a
// recorded process is recognised by pid AND start time, and where it matters by its command line.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'

/** The process's start time as the OS reports it, or null where it cannot be read. */
export function processStartTime(pid: number): string | null {
  try {
    if (process.platform === 'linux') {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      // Field 22 (starttime, in clock ticks since boot); the command name before it may hold spaces.
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
    }
    if (process.platform === 'darwin') return execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' }).trim() || null
  } catch {
    /* no such process, or no way to ask */
  }
  return null
}

/** The process's command line (arguments joined by spaces), or null. */
export function commandLineOf(pid: number): string | null {
  try {
    if (process.platform === 'linux') return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
    if (process.platform === 'darwin') return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).trim() || null
  } catch {
    /* gone */
  }
  return null
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The same process as recorded: alive, and (where the OS tells) started at the recorded time. */
export function sameProcess(pid: number, start: string | null): boolean {
  if (!pidAlive(pid)) return false
  if (start === null) return true
  const now = processStartTime(pid)
  return now === null || now === start
}
