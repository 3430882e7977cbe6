/**
 * Retaking a turn that changed files, in Chromium: the restore sheet lists what goes back, a file
 * the user edited since is a conflict kept by default, and Undo restore puts the folder back (the
 * host's last restore, the same record the Checkpoints panel undoes).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type AppUnderTest, closeApp, startApp, turnsRecorded, until, waitForCount, waitForText } from './harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

const messages = (role: 'user' | 'assistant') => app!.page.locator(`[data-testid="message"][data-role="${role}"]`)

async function send(text: string, answer: string | RegExp) {
  await app!.page.getByTestId('composer').fill(text)
  await app!.page.getByTestId('composer').press('Enter')
  await messages('assistant').last().getByText(answer).waitFor()
  await turnsRecorded(app!.page)
}

describe('↺ with files', () => {
  it('files and conversation: the sheet lists the file, the retake removes it, undo brings it back', async () => {
    app = await startApp({ git: true, files: { 'README.md': '# demo\n' } })
    const { page, fake, project } = app
    await send('WRITE notes.txt from the agent', /done/)
    expect(existsSync(join(project, 'notes.txt'))).toBe(true)
    // The timeline says what the turn changed on disk.
    const changes = messages('user').first().getByTestId('turn-changes')
    await waitForText(changes, '1 file')
    await changes.getByTestId('turn-changes-toggle').click()
    await waitForText(changes, 'notes.txt')

    fake.script({ kind: 'text', text: 'retaken without touching files' })
    await messages('user').first().hover()
    await messages('user').first().getByTestId('retake').click()
    const sheet = page.getByTestId('restore-sheet')
    await waitForText(sheet.getByTestId('restore-remove'), 'notes.txt')
    await sheet.getByTestId('restore-confirm').click()
    await messages('assistant').last().getByText('retaken without touching files').waitFor()
    expect(existsSync(join(project, 'notes.txt'))).toBe(false)
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# demo\n')
    await waitForCount(messages('user'), 1)

    await page.getByTestId('undo-restore').click()
    await waitForText(page.getByTestId('restore-summary'), 'Restore undone')
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toContain('from the agent')
    // Changed their mind again: redo rolls the file back, and that too can be undone.
    await page.getByTestId('redo-restore').click()
    await waitForText(page.getByTestId('restore-summary'), 'Restore redone: 1 file rolled back to before the turn again')
    expect(existsSync(join(project, 'notes.txt'))).toBe(false)
    await page.getByTestId('undo-restore').click()
    await waitForText(page.getByTestId('restore-summary'), 'Restore undone')
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toContain('from the agent')

    // The host keeps the retake's restore as the session's last one: the Checkpoints panel shows the
    // same record, and its redo is what the bar continues from.
    await page.getByTestId('open-checkpoints').click()
    const panel = page.getByTestId('checkpoints-panel')
    await waitForText(panel, 'Last restore: back to “WRITE notes.txt from the agent” (undone)')
    await panel.getByTestId('redo-restore').click()
    await panel.locator('[data-testid="restore-result"][data-status="done"]').waitFor()
    await until(() => !existsSync(join(project, 'notes.txt')), 'notes.txt to be removed again')
    await panel.getByTestId('close-checkpoints').click()
    await waitForCount(panel, 0)
    const bar = page.getByTestId('undo-restore-bar')
    await waitForText(bar.getByTestId('restore-summary'), 'The turn’s file changes are rolled back again.')
    await bar.getByTestId('undo-restore').click()
    // Done once the bar offers the redo (its words before the click stay while it runs).
    await bar.getByTestId('redo-restore').waitFor()
    await waitForText(bar.getByTestId('restore-summary'), 'Restore undone')
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toContain('from the agent')
  })

  it('a file the user edited after the turn is a conflict, kept by default; files only leaves the conversation', async () => {
    app = await startApp({ files: { 'README.md': '# demo\n' } })
    const { page, project } = app
    await send('WRITE notes.txt v1 ; EDIT README.md demo DEMO', /done/)
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# DEMO\n')
    writeFileSync(join(project, 'README.md'), '# my own words\n')

    await messages('user').first().hover()
    await messages('user').first().getByTestId('retake').click()
    const sheet = page.getByTestId('restore-sheet')
    const conflicts = sheet.getByTestId('restore-conflicts')
    await waitForText(conflicts, 'README.md')
    expect(await conflicts.getByTestId('conflict-choice').inputValue()).toBe('keep')
    // Its diff says what the choice selected leaves on disk: kept, the user's words stay.
    await sheet.getByRole('button', { name: 'Show the changes to README.md' }).click()
    await waitForText(sheet.getByRole('group', { name: /^Your version now/ }), 'my own words')
    const choice = sheet.getByRole('combobox', { name: 'What to do with README.md' })
    await choice.selectOption({ label: 'Put back the version from before the turn' })
    await waitForText(sheet.getByRole('group', { name: /^If you put it back/ }), '# demo')
    await choice.selectOption({ label: 'Keep my version' })
    await waitForText(sheet.getByTestId('restore-remove'), 'notes.txt')
    await sheet.getByLabel(/Files only/).check()
    await sheet.getByTestId('restore-confirm').click()

    await waitForText(page.getByTestId('restore-summary'), 'kept as it was')
    await until(() => !existsSync(join(project, 'notes.txt')), 'notes.txt to be removed')
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# my own words\n')
    // Files only: the conversation is as it was.
    await waitForCount(messages('user'), 1)
    await messages('assistant').last().getByText(/done/).waitFor()

    await page.getByTestId('undo-restore').click()
    await waitForText(page.getByTestId('restore-summary'), 'Restore undone')
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toContain('v1')
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# my own words\n')
  })

  it('any file can be kept as it is: the retake rolls back the rest, even where the server’s own revert rewrote it (git project)', async () => {
    app = await startApp({ git: true, files: { 'README.md': '# demo\n' } })
    const { page, fake, project } = app
    await send('WRITE notes.txt from the agent ; EDIT README.md demo DEMO', /done/)
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# DEMO\n')

    fake.script({ kind: 'text', text: 'retaken, README kept' })
    await messages('user').first().hover()
    await messages('user').first().getByTestId('retake').click()
    const sheet = page.getByTestId('restore-sheet')
    const putBack = sheet.getByTestId('restore-put-back')
    await waitForText(putBack, 'README.md')
    expect(await putBack.getByTestId('file-choice').inputValue()).toBe('roll-back')
    await putBack.getByTestId('file-choice').selectOption('keep')
    await sheet.getByTestId('restore-confirm').click()
    await messages('assistant').last().getByText('retaken, README kept').waitFor()
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# DEMO\n')
    expect(existsSync(join(project, 'notes.txt'))).toBe(false)
    await waitForText(page.getByTestId('restore-summary'), 'kept as it was')
  })

  it('R on a turn that changed files opens the same restore sheet as ↺, and the retake restores the files', async () => {
    app = await startApp({ files: { 'README.md': '# demo\n' } })
    const { page, fake, project } = app
    await send('WRITE notes.txt from the agent', /done/)
    expect(existsSync(join(project, 'notes.txt'))).toBe(true)
    fake.script({ kind: 'text', text: 'retaken by keyboard' })
    const asked = fake.chatRequests().length
    await messages('assistant').last().focus()
    await page.keyboard.press('r')
    const sheet = page.getByTestId('restore-sheet')
    await waitForText(sheet.getByTestId('restore-remove'), 'notes.txt')
    // Nothing happened yet: the sheet asks first.
    expect(existsSync(join(project, 'notes.txt'))).toBe(true)
    expect(fake.chatRequests()).toHaveLength(asked)
    await sheet.getByTestId('restore-confirm').click()
    await messages('assistant').last().getByText('retaken by keyboard').waitFor()
    expect(existsSync(join(project, 'notes.txt'))).toBe(false)
    await waitForCount(messages('user'), 1)
  })

  it('a file the turn wrote outside the project is named on the sheet, and stays', async () => {
    app = await startApp({ files: { 'README.md': '# demo\n' }, config: { permission: { external_directory: 'allow' } } })
    const { page, fake, project } = app
    const outside = join(dirname(project), 'outside.txt')
    fake.script({
      kind: 'tool',
      calls: [
        { name: 'write', args: { filePath: join(project, 'notes.txt'), content: 'inside\n' } },
        { name: 'write', args: { filePath: outside, content: 'outside\n' } },
      ],
    })
    fake.script({ kind: 'text', text: 'wrote both' })
    await send('write both files', 'wrote both')
    expect(readFileSync(outside, 'utf8')).toBe('outside\n')

    fake.script({ kind: 'text', text: 'retaken' })
    await messages('user').first().hover()
    await messages('user').first().getByTestId('retake').click()
    const sheet = page.getByTestId('restore-sheet')
    await waitForText(sheet.getByTestId('restore-remove'), 'notes.txt')
    await sheet.getByText('../outside.txt was written outside the project: it stays').waitFor()
    await sheet.getByTestId('restore-confirm').click()
    await messages('assistant').last().getByText('retaken').waitFor()
    expect(existsSync(join(project, 'notes.txt'))).toBe(false)
    expect(readFileSync(outside, 'utf8')).toBe('outside\n')
  })
})
