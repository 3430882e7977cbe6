/**
 * The Checkpoints panel end to end (browser mode, real opencode, fake LLM): two turns that write
 * files, both listed with their file, a files-only restore back to the first turn removes both
 * files on disk while the conversation stays, undo brings them back, storage and clean-up work.
 * Also opens Settings. Screenshots of both go to test-results/ for a look.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type AppUnderTest, closeApp, startApp, turnsRecorded, until, waitForCount, waitForText } from './harness'

let app: AppUnderTest

beforeEach(async () => {
  app = await startApp({ files: { 'README.md': '# demo\n' } })
})
afterEach(async (ctx) => closeApp(app, ctx))

const assistantMessages = () => app.page.locator('[data-testid="message"][data-role="assistant"]')

/** Sends a prompt and waits until its turn is over (the fake's "done" and an idle session). */
async function sendAndFinish(text: string, turnsSoFar: number) {
  const { page } = app
  await page.getByTestId('composer').fill(text)
  await page.getByTestId('composer').press('Enter')
  await waitForCount(page.locator('[data-testid="message"][data-role="user"]'), turnsSoFar + 1)
  // Each turn ends with the fake's "done: write" (counted: the previous turn's is on screen too).
  await waitForCount(assistantMessages().getByText(/done: write/), turnsSoFar + 1, 30_000)
  await page.locator('[data-testid="message"][data-role="assistant"][data-streaming="true"]').waitFor({ state: 'detached' })
  await turnsRecorded(page)
}

describe('checkpoints panel', () => {
  it('lists both turns, restores back to the first (files only), undoes it, shows storage and cleans up', async () => {
    const { page, project } = app
    const one = join(project, 'one.txt')
    const two = join(project, 'two.txt')
    mkdirSync('test-results', { recursive: true })
    await sendAndFinish('WRITE one.txt first', 0)
    await sendAndFinish('WRITE two.txt second', 1)
    expect(readFileSync(one, 'utf8')).toContain('first')
    expect(readFileSync(two, 'utf8')).toContain('second')

    await page.screenshot({ path: 'test-results/checkpoints-header.png' })
    await page.getByTestId('open-checkpoints').click()
    const panel = page.getByTestId('checkpoints-panel')
    await panel.waitFor()
    // Sealed shortly after the session goes idle: the panel asks again until both are.
    await waitForCount(panel.locator('[data-testid="checkpoint-turn"][data-status="sealed"]'), 2, 30_000)
    const turns = panel.getByTestId('checkpoint-turn')
    // Newest first, labelled with what was typed.
    await waitForText(turns.nth(0), 'WRITE two.txt second')
    await waitForText(turns.nth(1), 'WRITE one.txt first')
    await waitForText(turns.nth(1).getByTestId('turn-summary'), '1 added')
    await turns.nth(1).getByTestId('turn-toggle').click()
    await waitForText(turns.nth(1).getByTestId('turn-file'), 'one.txt')
    await turns.nth(0).getByTestId('turn-toggle').click()
    await waitForText(turns.nth(0).getByTestId('turn-file'), 'two.txt')
    await waitForText(panel.getByTestId('storage-stats'), /for 2 turns/)
    await page.getByTestId('storage-stats').waitFor()
    await page.screenshot({ path: 'test-results/checkpoints-panel.png' })

    // Restore back to the first turn: both files were created by these turns, so both go.
    await turns.nth(1).getByTestId('restore-back').click()
    const sheet = panel.getByTestId('restore-sheet')
    await sheet.waitFor()
    await waitForText(sheet.getByTestId('restore-remove'), 'one.txt')
    await waitForText(sheet.getByTestId('restore-remove'), 'two.txt')
    expect(await sheet.getByTestId('restore-conflicts').count()).toBe(0)
    await page.screenshot({ path: 'test-results/checkpoints-confirm.png' })
    await sheet.getByTestId('restore-confirm').click()
    const result = panel.locator('[data-testid="restore-result"][data-status="done"]')
    await result.waitFor()
    await waitForText(result, '2 files removed')
    await until(() => !existsSync(one) && !existsSync(two), 'both files to be gone')
    expect(existsSync(join(project, 'README.md'))).toBe(true)
    await waitForCount(panel.locator('[data-testid="checkpoint-turn"][data-status="restored"]'), 2)
    await page.screenshot({ path: 'test-results/checkpoints-restored.png' })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: 'test-results/checkpoints-restored-dark.png' })
    await page.emulateMedia({ colorScheme: 'light' })
    // Files only: the conversation still has both turns.
    await waitForCount(page.locator('[data-testid="message"][data-role="user"]'), 2)

    await panel.getByTestId('undo-restore').click()
    await waitForText(panel.getByTestId('restore-result'), /Undo done: 2 files/)
    await until(() => existsSync(one) && existsSync(two), 'both files to be back')
    expect(readFileSync(one, 'utf8')).toContain('first')
    expect(readFileSync(two, 'utf8')).toContain('second')
    await waitForCount(panel.getByTestId('undo-restore'), 0)

    // Clean-up with generous limits: it runs and says what it freed.
    await panel.getByTestId('cleanup-age').fill('365')
    await panel.getByTestId('run-cleanup').click()
    await waitForText(panel.getByTestId('cleanup-result'), /dropped, .* freed/)
    await panel.getByTestId('storage-stats').waitFor()

    // The store's own check: every file the checkpoints hold reads back intact.
    await panel.getByTestId('run-verify').click()
    await waitForText(panel.getByTestId('verify-result'), /All \d+ checkpoint files? (is|are) intact/)

    await panel.getByTestId('close-checkpoints').click()
    await waitForCount(page.getByTestId('checkpoints-panel'), 0)
  })

  it('opens Settings from the sidebar and refuses a folder that is not a full path', async () => {
    const { page } = app
    await page.getByTestId('open-settings').click()
    const dialog = page.getByTestId('settings-dialog')
    await dialog.waitFor()
    await dialog.getByTestId('settings-folders').waitFor()
    // What the server runs with: the test's config file, given on the command line, read by opencode.
    await waitForText(dialog.getByTestId('server-setup-text'), join(app.root, 'opencode.json'))
    expect(await dialog.getByTestId('server-setup-text').textContent()).toContain('given on the command line')
    await waitForText(dialog.getByTestId('config-ok'), 'default model fake/echo')
    await dialog.getByTestId('folder-path').fill('relative/folder')
    await dialog.getByTestId('folder-add').click()
    await waitForText(dialog.getByTestId('folder-error'), 'full path')
    await dialog.getByTestId('folder-path').fill(join(app.root, 'shared-data'))
    await dialog.getByTestId('folder-new-shared').check()
    mkdirSync(join(app.root, 'shared-data'), { recursive: true })
    await dialog.getByTestId('folder-add').click()
    await waitForCount(dialog.getByTestId('settings-folder'), 1)
    await dialog.getByTestId('excludes-input').fill('*.log\nbuild/')
    mkdirSync('test-results', { recursive: true })
    await page.screenshot({ path: 'test-results/settings-dialog.png' })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: 'test-results/settings-dialog-dark.png' })
    await dialog.getByTestId('server-save').scrollIntoViewIfNeeded()
    await page.screenshot({ path: 'test-results/settings-dialog-server.png' })
    await page.emulateMedia({ colorScheme: 'light' })
    await dialog.getByTestId('excludes-save').click()
    await dialog.getByText('Saved.').waitFor()
    const saved = JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8'))
    expect(saved.extraFolders).toEqual([{ path: join(app.root, 'shared-data'), shared: true }])
    expect(saved.excludes).toEqual(['*.log', 'build/'])
  })
})
