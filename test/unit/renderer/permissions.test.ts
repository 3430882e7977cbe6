import { describe, expect, it } from 'vitest'
import { applyToPermissions, describePermission, type PermissionRequest } from '../../../src/lib/permissions'

const req = (id: string, extra: Partial<PermissionRequest> = {}): PermissionRequest => ({ id, sessionID: 'ses_1', permission: 'bash', patterns: ['echo hi'], metadata: {}, always: ['echo *'], ...extra })
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
