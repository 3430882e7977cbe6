import { describe, expect, it } from 'vitest'
import { applyToPermissions, applyToQuestions, describePermission, questionAnswers, type PermissionRequest, type QuestionRequest } from '../../../src/features/chat/permissions'

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
  it('says what the agent wants to do', () => {
    expect(describePermission(req('a', { metadata: { command: 'rm -rf build' } }))).toBe('bash: rm -rf build')
    expect(describePermission(req('b', { permission: 'edit', patterns: ['src/a.ts'] }))).toBe('edit: src/a.ts')
    expect(describePermission(req('c', { permission: 'webfetch', patterns: ['*'] }))).toBe('webfetch')
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
