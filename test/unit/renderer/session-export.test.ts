/** A session as Markdown and as opencode's export, and an import's renumbering (pure). */
import { describe, expect, it } from 'vitest'
import type { Attempt } from '../../../shared/ipc-contract'
import { exportFileName, toMarkdown } from '../../../src/features/sessions/session-export'
import type { Part } from '../../../src/api/types'
import { SID, assistant, session, user } from './fixtures'

const text = (id: string, t: string) => ({ id, sessionID: SID, messageID: 'm', type: 'text', text: t }) as Part
const s = session(SID, 1, { title: 'Fix the build' })

describe('toMarkdown', () => {
  it('writes each turn with who said it, and code that holds a fence stays one block', () => {
    const md = toMarkdown(s, [user('msg_1', 'why is it red?'), assistant('msg_2', 'msg_1', {}, [text('p1', 'Because:\n\n```\nx\n```')])], [], 0)
    expect(md).toContain('# Fix the build')
    expect(md).toContain('## You\n\nwhy is it red?')
    expect(md).toContain('## build · local/echo\n\nBecause:\n\n```\nx\n```')
    expect(md).toContain('1970-01-01T00:00:00.000Z')
  })

  it('marks a retaken turn and keeps its earlier attempts after the answer in use, before the next question', () => {
    const attempt: Attempt = {
      sessionID: SID,
      messageID: 'msg_1',
      model: { providerID: 'fake', modelID: 'echo' },
      at: 5,
      messages: [assistant('msg_old', 'msg_1', {}, [text('p2', 'the first answer')])],
    }
    const md = toMarkdown(s, [user('msg_1', 'q1'), assistant('msg_2', 'msg_1', {}, [text('p1', 'the answer in use')]), user('msg_3', 'q2')], [attempt], 0)
    const inUse = md.indexOf('the answer in use')
    const mark = md.indexOf('This turn was retaken: one earlier attempt is kept')
    const earlier = md.indexOf('### Earlier attempt 1 of this turn with fake/echo')
    const old = md.indexOf('the first answer')
    const next = md.indexOf('q2')
    expect([inUse, mark, earlier, old, next].every((i) => i > 0)).toBe(true)
    expect(inUse < mark && mark < earlier && earlier < old && old < next).toBe(true)
  })

  it('says what a tool did and when an answer failed', () => {
    const tool = {
      id: 'p3',
      sessionID: SID,
      messageID: 'msg_2',
      type: 'tool',
      callID: 'c',
      tool: 'write',
      state: { status: 'completed', input: { filePath: 'a.txt' }, output: 'wrote', title: 'a.txt', metadata: {}, time: { start: 1, end: 2 } },
    } as Part
    const failed = assistant('msg_4', 'msg_3', { error: { name: 'APIError', data: { message: 'quota exceeded', isRetryable: false } } })
    const md = toMarkdown(s, [user('msg_1'), assistant('msg_2', 'msg_1', {}, [tool]), user('msg_3'), failed], [], 0)
    expect(md).toContain('**Tool `write`:** a.txt')
    expect(md).toContain('"filePath": "a.txt"')
    expect(md).toContain('**Failed:** quota exceeded')
  })

  it('names the file after the title, with nothing a file system refuses', () => {
    expect(exportFileName(session(SID, 1, { title: 'a/b: c?*' }), 'md')).toBe('a-b-c.md')
    expect(exportFileName(session(SID, 1, { title: '' }), 'json')).toBe('session.json')
  })
})
