/**
 * The Changes panel in Chromium against the real server, in a folder that is not a git repository:
 * the session's files from its checkpoints in a tree with a filter, a file's diff unified and side by
 * side, one turn at a time, and "Restore this file…" putting back that file only.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, turnsRecorded, waitForCount, waitForText, type AppUnderTest } from './harness'

let app: AppUnderTest
beforeEach(async () => {
  app = await startApp({ files: { 'notes.txt': 'first line\nsecond line\n' } })
})
afterEach(async (ctx) => closeApp(app, ctx))

async function turn(text: string, n: number) {
  const { page } = app
  await page.getByTestId('composer').fill(text)
  await page.getByTestId('composer').press('Enter')
  await waitForCount(page.locator('[data-testid="message"][data-role="assistant"]').getByText(/done: (write|edit)/), n, 30_000)
  await turnsRecorded(page)
}

describe('Changes panel', () => {
  it('shows the session’s files and diffs without git, per turn, and restores one file only', async () => {
    const { page, project } = app
    expect(existsSync(join(project, '.git'))).toBe(false)
    await turn('WRITE src/app/hello.ts export const greeting = "hi"', 1)
    await turn('EDIT notes.txt "second line" "second line, edited"', 2)

    // From the keyboard: Ctrl+K, "changes", Enter. (The header's Changes button is the mouse's way.)
    await page.keyboard.press('Control+k')
    await page.getByTestId('command-palette').getByTestId('palette-search').fill('changes')
    await page.getByTestId('command-palette').getByRole('option', { name: 'Show the session’s changes' }).waitFor()
    await page.keyboard.press('Enter')
    const panel = page.getByRole('dialog', { name: 'Changes' })
    const tree = panel.getByRole('tree', { name: 'Changed files' })
    await tree.getByRole('treeitem', { name: /hello\.ts/ }).waitFor()
    await tree.getByRole('treeitem', { name: /notes\.txt/ }).waitFor()
    await waitForText(tree, 'src/app/')

    // The filter narrows the tree.
    await panel.getByRole('searchbox', { name: 'Filter files' }).fill('notes')
    await waitForCount(tree.getByRole('treeitem'), 1)
    await tree.getByRole('treeitem', { name: /notes\.txt/ }).click()
    const unified = panel.getByTestId('diff-unified')
    await waitForText(unified, 'second line, edited')
    expect(await unified.locator('tr.diff-del').textContent()).toContain('second line')
    expect(await unified.locator('tr.diff-add').textContent()).toContain('second line, edited')
    await panel.getByRole('radio', { name: 'Side by side' }).check()
    const split = panel.getByTestId('diff-split')
    await split.locator('td.diff-del', { hasText: 'second line' }).waitFor()
    await split.locator('td.diff-add', { hasText: 'second line, edited' }).waitFor()
    mkdirSync('test-results', { recursive: true })
    await page.screenshot({ path: 'test-results/changes-panel.png' })

    // One turn at a time: the first turn changed only hello.ts.
    await panel.getByRole('searchbox', { name: 'Filter files' }).fill('')
    await panel.getByTestId('changes-scope').selectOption({ index: 1 })
    await waitForCount(tree.getByRole('treeitem'), 1)
    await tree.getByRole('treeitem', { name: /hello\.ts/ }).waitFor()

    // The header's button opens it too.
    await panel.getByRole('button', { name: 'Close' }).click()
    await panel.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Changes' }).click()
    await tree.getByRole('treeitem', { name: /hello\.ts/ }).waitFor()

    // Restore one file: the sheet starts with only that file chosen.
    await panel.getByTestId('changes-scope').selectOption('session')
    await tree.getByRole('treeitem', { name: /notes\.txt/ }).click()
    await panel.getByTestId('changes-restore-file').click()
    const sheet = panel.getByTestId('restore-sheet')
    await waitForText(sheet, 'notes.txt')
    await sheet.getByTestId('restore-confirm').click()
    await panel.getByTestId('restore-result').waitFor()
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('first line\nsecond line\n')
    expect(readFileSync(join(project, 'src/app/hello.ts'), 'utf8')).toContain('greeting')
  })
})
