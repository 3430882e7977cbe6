/**
 * Attempts you can return to, in the browser against the real opencode server: retaking an early
 * turn keeps the whole branch it replaces (its answer and the later turns) readable in the previous
 * attempt; Edit changes what was asked and retakes it through the same path as ↺ — the turn's files
 * rolled back through the restore sheet, one user bubble with the new text, the old question kept.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type AppUnderTest, closeApp, startApp, turnsRecorded, until, waitForCount, waitForText } from './harness'
import { chooseInPalette, currentModel, pickModel } from './pick-model'

let app: AppUnderTest

beforeEach(async () => {
  app = await startApp({ git: true })
})
afterEach(async (ctx) => closeApp(app, ctx))

const messages = (role: 'user' | 'assistant') => app.page.locator(`[data-testid="message"][data-role="${role}"]`)

async function send(text: string) {
  await app.page.getByTestId('composer').fill(text)
  await app.page.getByTestId('composer').press('Enter')
  await messages('assistant').last().getByText(`echo: ${text}`).waitFor()
}

describe('attempts', () => {
  it('retaking turn 1 of three keeps turns 2 and 3 readable in the previous attempt', async () => {
    const { page, fake } = app
    await send('first question')
    await send('second question')
    await send('third question')
    const first = messages('user').first()
    await first.hover()
    await first.getByTestId('retake').click()
    await page.getByTestId('retake-confirm-yes').click()
    await until(() => fake.chatRequests().length === 4, 'the retaken request')
    await waitForCount(messages('user'), 1)
    await messages('assistant').last().getByText('echo: first question').waitFor()

    const switcher = page.getByTestId('attempt-switcher')
    await waitForText(switcher.getByTestId('attempt-label'), 'attempt 2 of 2')
    await switcher.getByTestId('attempt-prev').click()
    const panel = switcher.getByTestId('attempt-panel')
    await waitForText(panel.getByTestId('attempt-meta'), '2 later turns')
    const later = panel.getByTestId('attempt-user')
    await waitForCount(later, 2)
    expect(await later.allTextContents()).toEqual(['You: second question', 'You: third question'])
    await waitForText(panel, 'echo: third question')
    await page.screenshot({ path: 'test-results/guide-attempts.png' })
  })

  it('Edit retakes the message with the new text: its files rolled back, one bubble, the old question kept', async () => {
    const { page, fake, project } = app
    const asked = 'WRITE edited.txt first version'
    await app.page.getByTestId('composer').fill(asked)
    await app.page.getByTestId('composer').press('Enter')
    await messages('assistant').last().getByText(/done/).waitFor()
    expect(existsSync(join(project, 'edited.txt'))).toBe(true)
    await turnsRecorded(page)

    const user = messages('user').first()
    const userID = await user.getAttribute('data-message-id')
    await user.hover()
    await user.getByTestId('edit-message').click()
    const text = page.getByTestId('edit-text')
    expect(await text.inputValue()).toBe(asked)
    await text.fill('just say hello instead')
    await page.getByTestId('edit-retake').click()
    // The turn changed files: the same restore sheet as ↺.
    const sheet = page.getByTestId('restore-sheet')
    await waitForText(sheet, 'edited.txt')
    await sheet.getByTestId('restore-confirm').click()

    await until(() => fake.chatRequests().at(-1)?.lastUserText() === 'just say hello instead', 'the edited request')
    await messages('assistant').last().getByText('echo: just say hello instead').waitFor()
    await waitForCount(messages('user'), 1)
    expect(await messages('user').first().getAttribute('data-message-id')).toBe(userID)
    await waitForText(messages('user').first(), 'just say hello instead')
    expect(existsSync(join(project, 'edited.txt'))).toBe(false)

    const switcher = page.getByTestId('attempt-switcher')
    await switcher.getByTestId('attempt-prev').click()
    // The earlier attempt is read back from the host first: on a loaded 2-core CI run this took
    // over 20 s once (it takes under one alone), so its wait is longer than the default.
    await waitForText(switcher.getByTestId('attempt-question'), asked, 60_000)

    // ↑ in the empty composer edits the last message sent.
    await page.getByTestId('composer').focus()
    await page.keyboard.press('ArrowUp')
    expect(await page.getByTestId('edit-text').inputValue()).toBe('just say hello instead')
  })

  it('Continue from an earlier attempt brings back its conversation and files, never overwrites the user’s edit, and the branch left is one click away', async () => {
    const { page, fake, project } = app
    const asked = 'WRITE kept.txt from the first attempt'
    await page.getByTestId('composer').fill(asked)
    await page.getByTestId('composer').press('Enter')
    await messages('assistant').last().getByText(/done/).waitFor()
    await turnsRecorded(page)

    // Attempt 2: the question edited, the first attempt's file rolled back.
    const user = messages('user').first()
    await user.hover()
    await user.getByTestId('edit-message').click()
    await page.getByTestId('edit-text').fill('WRITE other.txt from the second attempt')
    await page.getByTestId('edit-retake').click()
    await waitForText(page.getByTestId('restore-sheet'), 'kept.txt')
    await page.getByTestId('restore-sheet').getByTestId('restore-confirm').click()
    await until(() => existsSync(join(project, 'other.txt')) && !existsSync(join(project, 'kept.txt')), 'the second attempt’s files')
    await turnsRecorded(page)
    const requests = fake.chatRequests().length

    // The user edits the second attempt's file before switching back.
    writeFileSync(join(project, 'other.txt'), 'my own edit\n')

    // Back to attempt 1: the sheet offers the edited file as a conflict (kept by default); attempt 1's file returns.
    const switcher = page.getByTestId('attempt-switcher')
    await switcher.getByTestId('attempt-prev').click()
    await waitForText(switcher.getByTestId('attempt-files'), '1 file changed')
    await switcher.getByTestId('attempt-continue').click()
    const sheet = page.getByTestId('restore-sheet')
    await waitForText(sheet.getByTestId('restore-conflicts'), 'other.txt')
    await sheet.getByTestId('restore-confirm').click()
    await waitForText(page.getByTestId('continue-note'), 'Continued from the earlier attempt')
    expect(existsSync(join(project, 'kept.txt'))).toBe(true)
    expect(readFileSync(join(project, 'other.txt'), 'utf8')).toBe('my own edit\n')
    await waitForText(messages('user').first(), asked)
    await waitForCount(messages('user'), 1)
    // Nothing was asked of the model: the attempt's own answer is back.
    expect(fake.chatRequests().length).toBe(requests)
    await page.screenshot({ path: 'test-results/guide-attempt-continue.png' })

    // Undo: back to the second attempt, kept when it was left, through the same sheet.
    await page.getByTestId('continue-note').getByTestId('continue-undo').click()
    await waitForText(page.getByTestId('restore-sheet').getByTestId('restore-remove'), 'kept.txt')
    await page.getByTestId('restore-sheet').getByTestId('restore-confirm').click()
    await until(() => !existsSync(join(project, 'kept.txt')), 'the first attempt’s file gone again')
    // The user's edit was never overwritten, either way.
    expect(readFileSync(join(project, 'other.txt'), 'utf8')).toBe('my own edit\n')
    await waitForText(messages('user').first(), 'WRITE other.txt from the second attempt')
    // The storage view says the kept attempt's files are never cleaned up.
    await page.getByTestId('open-checkpoints').click()
    await waitForText(page.getByTestId('checkpoints-panel').getByTestId('storage-attempts'), 'The files of 1 earlier attempt are kept through every clean-up')
  })

  it('Retake with three models runs the turn on each from the same files, compares them side by side, and keeps the one chosen', async () => {
    const { page, fake, project } = app
    const writer = (modelID: string, file: string) => {
      fake.script({ kind: 'tool', calls: [{ name: 'write', args: { filePath: join(project, file), content: `by ${modelID}\n` } }], model: modelID })
      fake.script({ kind: 'text', text: `${modelID} wrote ${file}`, model: modelID })
    }
    // Echo chosen in the header: after "Keep this one" the header must show the kept run's model instead.
    await pickModel(page, 'fake/echo')
    await page.getByTestId('composer').fill('WRITE base.txt from the first answer')
    await page.getByTestId('composer').press('Enter')
    await messages('assistant').last().getByText(/done/).waitFor()
    await turnsRecorded(page)
    writer('echo-2', 'two.txt')
    writer('echo-noimg', 'three.txt')
    writer('claude-fake', 'four.txt')

    const user = messages('user').first()
    await user.hover()
    await user.getByTestId('retake-with').click()
    const menu = page.getByTestId('retake-menu')
    await menu.getByTestId('compare-toggle').check()
    await chooseInPalette(page, menu, 'echo 2', 'fake/echo-2')
    await chooseInPalette(page, menu, 'text only', 'fake/echo-noimg')
    await chooseInPalette(page, menu, 'claude', 'anth/claude-fake')
    await waitForText(menu.getByTestId('compare-picked'), '3. Claude Fake')
    await menu.getByTestId('compare-run').click()
    // The turn changed files: the restore sheet first, as for any retake, naming every model it runs.
    await waitForText(page.getByTestId('restore-sheet'), 'base.txt')
    await page.getByRole('heading', { name: 'Retake with Echo 2, Echo (text only) and Claude Fake' }).waitFor()
    await page.getByTestId('restore-sheet').getByTestId('restore-confirm').click()

    const view = page.getByTestId('compare-runs')
    await waitForCount(view.getByTestId('compare-column'), 3)
    const column = (i: number) => view.getByTestId('compare-column').nth(i)
    const first = column(0)
    for (const [i, model, file] of [
      [0, 'echo-2', 'two.txt'],
      [1, 'echo-noimg', 'three.txt'],
      [2, 'claude-fake', 'four.txt'],
    ] as const) {
      await waitForText(column(i).getByTestId('compare-answer'), `${model} wrote ${file}`)
      await waitForText(column(i).getByTestId('compare-files'), file)
    }
    // Each run started from the same files: only the last run's file is on disk now.
    const onDisk = () => ['base.txt', 'two.txt', 'three.txt', 'four.txt'].filter((f) => existsSync(join(project, f)))
    expect(onDisk()).toEqual(['four.txt'])
    await page.screenshot({ path: 'test-results/guide-compare.png' })

    // Each run's file shows its diff side by side.
    await first.getByRole('button', { name: 'Show the changes to two.txt' }).click()
    await waitForText(first.getByRole('table', { name: 'Changes to two.txt, side by side' }), 'by echo-2')

    // Keep this one is one step: nothing changed since the runs, so nothing to ask.
    await first.getByRole('button', { name: 'Keep this one' }).click()
    await waitForText(page.getByTestId('continue-note'), 'Continued from the earlier attempt')
    expect(await page.getByTestId('restore-sheet').count()).toBe(0)
    expect(onDisk()).toEqual(['two.txt'])
    await waitForText(messages('assistant').last(), 'echo-2 wrote two.txt')
    // The kept run's model is the session's now, and the header says so.
    await until(async () => (await currentModel(page)) === 'fake/echo-2', 'the header to show the kept run’s model')
  })

  it('Fork from a turn with its files: the new session works in a folder of its own, the original’s files stay', async () => {
    const { page, project } = app
    const write = async (text: string, n: number) => {
      await page.getByTestId('composer').fill(text)
      await page.getByTestId('composer').press('Enter')
      await waitForCount(page.getByText('done: write', { exact: true }), n)
      await turnsRecorded(page)
    }
    await write('WRITE one.txt from turn one', 1)
    await write('WRITE two.txt from turn two', 2)
    const folder = join(dirname(project), 'forked')

    const first = messages('user').first()
    await first.hover()
    await first.getByTestId('fork-message').click()
    const panel = page.getByTestId('fork-panel')
    await panel.getByTestId('fork-folder').fill(folder)
    await page.screenshot({ path: 'test-results/guide-fork.png' })
    await panel.getByTestId('fork-confirm').click()

    // The fork opens in its folder, with the conversation up to turn one.
    await waitForText(page.getByTestId('project-head'), 'forked')
    await waitForCount(messages('user'), 1)
    await waitForText(messages('user').first(), 'WRITE one.txt from turn one')
    expect([existsSync(join(folder, 'one.txt')), existsSync(join(folder, 'two.txt'))]).toEqual([true, false])

    await page.getByTestId('composer').fill('WRITE three.txt in the fork')
    await page.getByTestId('composer').press('Enter')
    await until(() => existsSync(join(folder, 'three.txt')), 'the fork’s file in its folder')
    expect(existsSync(join(project, 'three.txt'))).toBe(false)
    expect([existsSync(join(project, 'one.txt')), existsSync(join(project, 'two.txt'))]).toEqual([true, true])
  })
})
