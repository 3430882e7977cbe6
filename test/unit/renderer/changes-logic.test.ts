/** The Changes panel's logic: files across turns, the folder tree and its filter, diff rows (pure). */
import { describe, expect, it } from 'vitest'
import type { TurnCheckpoint } from '../../../shared/ipc-contract'
import { changedFiles, diffRows, fileTree, splitRows } from '../../../src/features/checkpoints/changes-logic'

const change = (path: string, c: 'added' | 'modified' | 'deleted', added = 1, removed = 0) => ({ root: '/p', path, change: c, binary: false, added, removed })
const turn = (messageID: string, createdAt: number, changes: TurnCheckpoint['changes']): TurnCheckpoint => ({ messageID, status: 'sealed', createdAt, changes })

describe('changedFiles', () => {
  it('lists a folder a turn created as the folder of its files, not as a file', () => {
    const files = changedFiles([turn('m', 1, [change('src', 'added', 0), change('src/app', 'added', 0), change('src/app/a.ts', 'added')])])
    expect(files.map((f) => f.path)).toEqual(['src/app/a.ts'])
    expect(fileTree(files).folders.map((d) => d.name)).toEqual(['src/app'])
  })

  it('joins each file’s turns, oldest first, with their line counts added up', () => {
    const files = changedFiles([turn('msg_2', 2, [change('src/a.ts', 'modified', 3, 1)]), turn('msg_1', 1, [change('src/a.ts', 'added', 10), change('README.md', 'modified')])])
    expect(files.map((f) => [f.path, f.turns.map((t) => `${t.messageID}:${t.change}`), f.added, f.removed])).toEqual([
      ['README.md', ['msg_1:modified'], 1, 0],
      ['src/a.ts', ['msg_1:added', 'msg_2:modified'], 13, 1],
    ])
  })
})

describe('fileTree', () => {
  const files = changedFiles([turn('m', 1, [change('src/app/main.ts', 'added'), change('src/app/util.ts', 'added'), change('docs/x.md', 'added'), change('top.txt', 'added')])])
  it('nests files in their folders and folds a folder with one folder in it', () => {
    const tree = fileTree(files)
    expect(tree.files.map((f) => f.path)).toEqual(['top.txt'])
    expect(tree.folders.map((d) => d.name)).toEqual(['docs', 'src/app'])
    expect(tree.folders[1]!.files.map((f) => f.path)).toEqual(['src/app/main.ts', 'src/app/util.ts'])
  })
  it('keeps only the paths that contain the filter, ignoring case', () => {
    const tree = fileTree(files, 'UTIL')
    expect(tree.files).toEqual([])
    expect(tree.folders.map((d) => [d.name, d.files.map((f) => f.path)])).toEqual([['src/app', ['src/app/util.ts']]])
  })
})

describe('diff rows', () => {
  const diff = '--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,3 @@\n keep\n-old line\n+new line\n+another\n tail\n'
  it('numbers the old and new lines and drops the file headers', () => {
    expect(diffRows(diff)).toEqual([
      { kind: 'hunk', text: '@@ -1,3 +1,3 @@' },
      { kind: 'context', text: 'keep', oldNo: 1, newNo: 1 },
      { kind: 'del', text: 'old line', oldNo: 2 },
      { kind: 'add', text: 'new line', newNo: 2 },
      { kind: 'add', text: 'another', newNo: 3 },
      { kind: 'context', text: 'tail', oldNo: 3, newNo: 4 },
    ])
  })
  it('puts a run of removed lines beside the added lines that replace it', () => {
    const rows = splitRows(diffRows(diff))
    expect(rows.map((r) => (r.kind === 'hunk' ? 'hunk' : `${r.left?.text ?? ''} | ${r.right?.text ?? ''}`))).toEqual([
      'hunk',
      'keep | keep',
      'old line | new line',
      ' | another',
      'tail | tail',
    ])
  })
})
