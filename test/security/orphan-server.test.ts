// The server's life follows the app's. Killing the host with SIGKILL used to leave
// an orphan opencode (still listening, still holding the project). Now its watchdog stops it; and a
// server an earlier run recorded as its own is stopped on the next start — but only if it really is
// that process (pid AND start time AND command line), never an unrelated one that got its pid.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pidAlive, processStartTime } from '../../core/process-identity'
import { recordedOrphan, stopRecordedOrphan } from '../../core/server/orphan-guard'
import { startChild } from '../checkpoints/helpers'

const root = mkdtempSync(join(tmpdir(), 'retake-orphan-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

async function until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('no orphan opencode', () => {
  it('a host killed with SIGKILL takes its opencode server with it', async () => {
    const configPath = join(root, 'opencode.json')
    writeFileSync(configPath, JSON.stringify({ $schema: 'https://opencode.ai/config.json', autoupdate: false, share: 'disabled' }))
    const host = startChild(join(__dirname, 'children/host-with-server.ts'), [join(root, 'data'), configPath, process.cwd()])
    let serverPid = 0
    try {
      await host.waitFor('server ')
      serverPid = Number(/server (\d+)/.exec(await host.output())![1])
      expect(pidAlive(serverPid)).toBe(true)
      await host.kill()
      await until(() => !pidAlive(serverPid), `opencode ${serverPid} to exit after its host died`)
    } finally {
      await host.kill()
      if (serverPid && pidAlive(serverPid)) process.kill(serverPid, 'SIGKILL') // never leave one behind, even when failing
    }
  }, 60_000)

  it('on start, a recorded server that is still ours is stopped; an unrelated process with that pid is not', async () => {
    const dataDir = mkdtempSync(join(root, 'data-'))
    const ours = spawn('sleep', ['60'])
    const stranger = spawn('sleep', ['61'])
    try {
      await Promise.all([new Promise((r) => ours.once('spawn', r)), new Promise((r) => stranger.once('spawn', r))])
      const record = (pid: number, start: string | null, binary: string) => writeFileSync(join(dataDir, 'opencode-server.json'), JSON.stringify({ pid, start, binary }))
      // Same pid, but started at another time: the pid was reused; never killed.
      record(stranger.pid!, `${processStartTime(stranger.pid!)}9`, '/usr/bin/sleep')
      expect(recordedOrphan(dataDir)).toBeNull()
      // Same pid and start time, but another program: not ours either.
      record(stranger.pid!, processStartTime(stranger.pid!), '/opt/retake/opencode')
      expect(recordedOrphan(dataDir)).toBeNull()
      expect(await stopRecordedOrphan(dataDir, () => {})).toBe(false)
      expect(pidAlive(stranger.pid!)).toBe(true)
      // Ours: stopped.
      record(ours.pid!, processStartTime(ours.pid!), '/usr/bin/sleep')
      expect(await stopRecordedOrphan(dataDir, () => {})).toBe(true)
      await new Promise((r) => (ours.exitCode !== null || ours.signalCode !== null ? r(null) : ours.once('exit', r)))
      expect(ours.signalCode).toBe('SIGTERM')
    } finally {
      ours.kill('SIGKILL')
      stranger.kill('SIGKILL')
    }
  })
})
