/**
 * /rewind in Chromium against the real opencode server: it goes back to before the chosen turn
 * through the same restore sheet as ↺ (the file the turn wrote is removed, Undo is offered, the
 * conversation no longer has the turn) and puts the turn's message — its text and its attachment,
 * still an attachment — in the composer to edit, with the cursor there. Nothing is sent to the
 * model until the user sends it; Cancel on the sheet changes nothing.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type AppUnderTest, closeApp, composerOf, messagesOf, startApp, turnsRecorded, until, waitForCount, waitForText } from './harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

const messages = (role: 'user' | 'assistant') => messagesOf(app!.page, role)
const composer = () => composerOf(app!.page)
const TURN = 'write the notes, please'

async function send(text: string, answer: string | RegExp) {
  await composer().fill(text)
  await composer().press('Enter')
  await messages('assistant').last().getByText(answer).first().waitFor()
  await turnsRecorded(app!.page)
}

async function typeRewind(n: number) {
  await composer().fill(`/rewind ${n}`)
  await composer().press('Enter')
}

describe('/rewind', () => {
  it('goes back to before the turn through the restore sheet and puts its message in the composer, sending nothing', async () => {
    app = await startApp({ git: true, files: { 'README.md': '# demo\n' } })
    const { page, fake, project } = app
    await send('first question', 'echo: first question')
    await page.getByTestId('attach-input').setInputFiles({ name: 'brief.md', mimeType: 'text/markdown', buffer: Buffer.from('# brief\n\nwrite the notes\n') })
    await page.getByTestId('composer-chip').waitFor()
    // The attachment is sent as text the fake would read as the prompt: the write is scripted.
    fake.script({ kind: 'tool', calls: [{ name: 'write', args: { filePath: join(project, 'notes.txt'), content: 'from the agent' } }] }, { kind: 'text', text: 'done: write' })
    await send(TURN, /done/)
    expect(existsSync(join(project, 'notes.txt'))).toBe(true)
    const asked = fake.requests.length
    const turns = fake.chatRequests().length

    // Cancel: nothing changes.
    await typeRewind(2)
    const sheet = page.getByRole('dialog', { name: 'Go back to before this turn' })
    await waitForText(sheet.getByTestId('restore-remove'), 'notes.txt')
    await waitForText(sheet, 'nothing is sent')
    await sheet.getByRole('button', { name: 'Cancel', exact: true }).click()
    await waitForCount(sheet, 0)
    expect(existsSync(join(project, 'notes.txt'))).toBe(true)
    await waitForCount(messages('user'), 2)
    expect(await composer().inputValue()).toBe('')

    // Confirmed: the file goes, the turn leaves the conversation, its message is back to edit.
    await typeRewind(2)
    await waitForText(sheet.getByTestId('restore-remove'), 'notes.txt')
    const go = sheet.getByRole('button', { name: 'Go back to before this turn', exact: true })
    await go.and(page.locator(':enabled')).waitFor()
    expect(await sheet.getByRole('button', { name: /^Retake/ }).count()).toBe(0)
    await go.click()
    await until(async () => (await composer().inputValue()) === TURN, 'the turn’s text in the composer')
    expect(existsSync(join(project, 'notes.txt'))).toBe(false)
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# demo\n')
    await waitForCount(messages('user'), 1)
    await waitForCount(messages('assistant'), 1)
    // The attachment is an attachment again (a chip), not a block of text in the box.
    await waitForText(page.getByTestId('composer-chip'), 'brief.md')
    expect(await composer().inputValue()).not.toContain('# brief')
    await until(() => composer().evaluate((el) => el === document.activeElement), 'the cursor in the composer')
    expect(await composer().evaluate((el: HTMLTextAreaElement) => el.selectionStart === el.value.length)).toBe(true)
    // Undo is offered for the files, as after ↺.
    await page.getByTestId('undo-restore-bar').getByRole('button', { name: 'Undo restore' }).waitFor()
    // Nothing went to the model.
    expect(fake.requests.length).toBe(asked)
    await page.screenshot({ path: 'test-results/rewind-composer.png' })

    // Sending it (edited) is an ordinary new turn after the first one, with its attachment.
    await composer().fill('write the notes again, edited')
    await composer().press('Enter')
    await waitForCount(messages('assistant'), 2)
    await messages('assistant')
      .last()
      .getByText(/echo: /)
      .first()
      .waitFor()
    await waitForText(messages('user').last(), 'write the notes again, edited')
    expect(await messages('user').last().getByTestId('attachment-chip').textContent()).toContain('brief.md')
    expect(fake.chatRequests()).toHaveLength(turns + 1)
  })
})
