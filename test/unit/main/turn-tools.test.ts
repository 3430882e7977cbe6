/** Reading what each turn's tools wrote from opencode's stored messages (the planner's evidence). */
import { describe, expect, it } from 'vitest'
import { toolUseByTurn, type StoredMessage } from '../../../core/turns/turn-tools'

const user = (id: string): StoredMessage => ({ info: { id, role: 'user' }, parts: [{ type: 'text' }] })
const answer = (parentID: string, ...tools: [string, Record<string, unknown>][]): StoredMessage => ({
  info: { id: `a-${parentID}-${tools.length}`, role: 'assistant', parentID },
  parts: tools.map(([tool, input]) => ({ type: 'tool', tool, state: { input } })),
})

describe('toolUseByTurn', () => {
  it('names the files of write/edit/multiedit and of a patch, relative paths resolved in the project', () => {
    const patch = '*** Begin Patch\n*** Add File: docs/new.md\n+hi\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n*** Delete File: old.txt\n*** End Patch'
    const use = toolUseByTurn(
      [
        user('m1'),
        answer('m1', ['write', { filePath: '/p/w.txt' }], ['edit', { filePath: 'rel/e.txt' }]),
        answer('m1', ['read', { filePath: '/p/r.txt' }], ['apply_patch', { patchText: patch }]),
      ],
      '/p',
    ).get('m1')!
    expect([...use.paths].sort()).toEqual(['/p/docs/new.md', '/p/old.txt', '/p/rel/e.txt', '/p/src/a.ts', '/p/src/b.ts', '/p/w.txt'])
    expect(use.opaque).toBe(false)
  })

  it('a shell, a sub-agent or an unknown tool makes the turn opaque; each turn is read on its own', () => {
    const use = toolUseByTurn(
      [user('m1'), answer('m1', ['bash', { command: 'make' }]), user('m2'), answer('m2', ['task', {}]), user('m3'), answer('m3', ['mcp_thing', {}]), user('m4')],
      '/p',
    )
    expect(use.get('m1')!.opaque).toBe(true)
    expect(use.get('m2')!.opaque).toBe(true)
    expect(use.get('m3')!.opaque).toBe(true)
    // A turn that ran no tool is known to have written nothing.
    expect(use.get('m4')).toEqual({ paths: new Set(), opaque: false })
    // A message the server no longer has is unknown, not "wrote nothing".
    expect(use.get('m9')).toBeUndefined()
  })
})
