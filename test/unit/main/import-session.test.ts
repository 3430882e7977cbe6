/** An import of opencode's session export renumbers every id and keeps every link (pure). */
import { describe, expect, it } from 'vitest'
import { renumbered } from '../../../core/retake/import-session'
import type { SessionExport } from '../../../shared/ipc-contract'

const data: SessionExport = {
  info: { id: 'ses_old', title: 'Fix the build' },
  messages: [
    {
      info: { id: 'msg_1', role: 'user', sessionID: 'ses_old', time: { created: 1 } },
      parts: [{ id: 'prt_q', type: 'text', text: 'q', messageID: 'msg_1', sessionID: 'ses_old' }],
    },
    {
      info: { id: 'msg_2', role: 'assistant', parentID: 'msg_1', sessionID: 'ses_old', time: { created: 2 } },
      parts: [{ id: 'prt_a', type: 'text', text: 'a', messageID: 'msg_2', sessionID: 'ses_old' }],
    },
  ],
}

describe('renumbered', () => {
  it('gives every message and part a new ascending id, under the new session, links kept', () => {
    const out = renumbered(data, 'ses_new', Date.now())
    const [q, a] = out as unknown as Array<{
      info: { id: string; parentID?: string; sessionID: string }
      parts: Array<{ id: string; messageID: string; sessionID: string; text: string }>
    }>
    expect(q!.info.id).not.toBe('msg_1')
    expect(a!.info.id).not.toBe('msg_2')
    expect(q!.info.id < a!.info.id).toBe(true)
    expect(a!.info.parentID).toBe(q!.info.id)
    for (const m of [q!, a!]) {
      expect(m.info.sessionID).toBe('ses_new')
      for (const p of m.parts) expect([p.messageID, p.sessionID, p.id.startsWith('prt_'), p.id === 'prt_q' || p.id === 'prt_a']).toEqual([m.info.id, 'ses_new', true, false])
    }
    expect(a!.parts[0]!.text).toBe('a')
  })
})
