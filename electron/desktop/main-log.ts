/**
 * The main process's own log, `logs/main.log` in the data dir next to opencode's log, rotated by
 * size (one old generation kept). A packaged app has no terminal, so this file is where "Open Logs
 * Folder" sends a user whose server did not start.
 */
import { join } from 'node:path'
import { openRotatingLog } from '../../core/server/rotating-log'

export const MAIN_LOG_FILE = 'main.log'

export interface MainLog {
  /** Writes one timestamped line (and mirrors it to stderr for a terminal launch). */
  write(line: string): void
  close(): void
  readonly file: string
}

/** `2026-11-22T06:50:14.123Z <line>`, with a multi-line message indented so each entry stays one block. */
export function formatLogLine(line: string, now: Date): string {
  return `${now.toISOString()} ${line.replace(/\r?\n/g, '\n    ')}\n`
}

export function logsDir(dataDir: string): string {
  return join(dataDir, 'logs')
}

export function openMainLog(dataDir: string, opts: { maxBytes?: number; echo?: boolean; now?: () => Date } = {}): MainLog {
  const file = join(logsDir(dataDir), MAIN_LOG_FILE)
  const log = openRotatingLog(file, opts.maxBytes ?? 2 * 1024 * 1024)
  const now = opts.now ?? (() => new Date())
  return {
    file,
    write(line) {
      const text = formatLogLine(line, now())
      if (opts.echo ?? true) process.stderr.write(text)
      try {
        log.write(text)
      } catch {
        // A full disk or a removed folder must not take the app down with it; stderr still has it.
      }
    },
    close: () => log.close(),
  }
}
