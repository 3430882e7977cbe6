import { describe, expect, it } from 'vitest'
import {
  applyToPermissions,
  applyToQuestions,
  describePermission,
  questionAnswers,
  visibleControls,
  type PermissionRequest,
  type QuestionRequest,
} from '../../../src/features/chat/permissions'

const req = (id: string, extra: Partial<PermissionRequest> = {}): PermissionRequest => ({
  id,
  sessionID: 'ses_1',
  permission: 'bash',
  patterns: ['echo hi'],
  metadata: {},
  always: ['echo *'],
  ...extra,
})
const ev = (type: string, properties: unknown) => ({ id: 'evt', type, properties }) as never

describe('permission requests', () => {
  it('adds asked requests once and removes replied ones', () => {
    let list: PermissionRequest[] | undefined = []
    list = applyToPermissions(list, ev('permission.asked', req('per_1')))
    list = applyToPermissions(list, ev('permission.asked', req('per_1')))
    list = applyToPermissions(list, ev('permission.asked', req('per_2')))
    expect(list!.map((p) => p.id)).toEqual(['per_1', 'per_2'])
    list = applyToPermissions(list, ev('permission.replied', { sessionID: 'ses_1', requestID: 'per_1', reply: 'once' }))
    expect(list!.map((p) => p.id)).toEqual(['per_2'])
  })
  it('leaves an unloaded list unloaded and unrelated events untouched', () => {
    expect(applyToPermissions(undefined, ev('permission.asked', req('x')))).toBeUndefined()
    const list = [req('a')]
    expect(applyToPermissions(list, ev('session.idle', { sessionID: 'ses_1' }))).toBe(list)
  })
  it('says what the agent wants to do in plain words, not opencode’s keys', () => {
    expect(describePermission(req('a', { metadata: { command: 'rm -rf build' } }))).toEqual({ action: 'Run a command', target: 'rm -rf build' })
    expect(describePermission(req('b', { permission: 'edit', patterns: ['src/a.ts'] }))).toEqual({ action: 'Write or change a file', target: 'src/a.ts' })
    expect(describePermission(req('c', { permission: 'webfetch', patterns: ['*'] }))).toEqual({ action: 'Fetch a web page', target: '' })
    const outside = req('d', { permission: 'external_directory', patterns: ['/home/me/x/*'], metadata: { filepath: '/home/me/x/a.txt', parentDir: '/home/me/x' } })
    expect(describePermission(outside)).toEqual({ action: 'Use a file outside the project', target: '/home/me/x/a.txt' })
    const outsideCmd = req('e', { permission: 'external_directory', patterns: ['/tmp/*'], metadata: { command: 'cp a /tmp/b', directories: ['/tmp'] } })
    expect(describePermission(outsideCmd)).toEqual({ action: 'Run a command outside the project', target: 'cp a /tmp/b' })
    expect(describePermission(req('f', { permission: 'something_new', patterns: ['x'] })).action).toBe('Use “something_new”')
  })
  it('shows every character that could make a command look different from what runs', () => {
    // "rm -rf ~ #" then a right-to-left override: the tail reads backwards, hiding what comes first.
    const sneaky = 'echo safe \u202E#\u2066 ; rm -rf ~\u2069\u200B\u200E\u200F\r\u0007\u001b[2K\u0085\uFEFF'
    const { target } = describePermission(req('g', { metadata: { command: sneaky } }))
    expect(target).toBe('echo safe ⟨U+202E⟩#⟨U+2066⟩ ; rm -rf ~⟨U+2069⟩⟨U+200B⟩⟨U+200E⟩⟨U+200F⟩⟨U+000D⟩⟨U+0007⟩⟨U+001B⟩[2K⟨U+0085⟩⟨U+FEFF⟩')
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x2028, 0x2029, 0x7f, 0x00]) {
      expect(visibleControls(`a${String.fromCodePoint(code)}b`)).toBe(`a⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩b`)
    }
    // What shows as itself stays itself: tabs and newlines (shown as such), accents, other scripts.
    expect(visibleControls('ls\t-la\nécho שלום 漢字 🙂')).toBe('ls\t-la\nécho שלום 漢字 🙂')
    // Paths and the "always" patterns go through the same.
    expect(describePermission(req('h', { permission: 'edit', patterns: ['a\u202Etxt.exe'] })).target).toBe('a⟨U+202E⟩txt.exe')
  })
})

describe('question requests', () => {
  const q = (id: string): QuestionRequest => ({
    id,
    sessionID: 'ses_1',
    questions: [
      {
        question: 'Which database?',
        header: 'Database',
        options: [
          { label: 'SQLite', description: '' },
          { label: 'Postgres', description: '' },
        ],
      },
      { question: 'Anything else?', header: 'Notes', options: [], custom: true },
    ],
  })
  it('tracks asked, replied and rejected questions', () => {
    let list: QuestionRequest[] | undefined = []
    list = applyToQuestions(list, ev('question.asked', q('que_1')))
    list = applyToQuestions(list, ev('question.asked', q('que_2')))
    list = applyToQuestions(list, ev('question.replied', { sessionID: 'ses_1', requestID: 'que_1', answers: [] }))
    list = applyToQuestions(list, ev('question.rejected', { sessionID: 'ses_1', requestID: 'que_3' }))
    expect(list!.map((x) => x.id)).toEqual(['que_2'])
  })
  it('answers every question with the chosen labels and the user’s own words', () => {
    expect(questionAnswers(q('a'), { 0: ['Postgres'] }, { 1: '  use migrations ' })).toEqual([['Postgres'], ['use migrations']])
    expect(questionAnswers(q('a'), {}, {})).toEqual([[], []])
  })
})
