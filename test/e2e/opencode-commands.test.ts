/**
 * opencode's own commands from Retake's composer, in Chromium against the real server: the server's
 * list (built-in ones and the config's) is in the / menu with descriptions, and one runs as a turn
 * like any other: opencode expands its template, the turn is checkpointed (its
 * file listed in Checkpoints), and ↺ retakes it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, turnsRecorded, until, waitForCount, waitForText, type AppUnderTest } from './harness'

let app: AppUnderTest
beforeEach(async () => {
  app = await startApp({
    config: (base) => ({ ...base, command: { greet: { template: 'WRITE greeting.txt hello $ARGUMENTS', description: 'Writes a greeting file' } } }),
  })
})
afterEach(async (ctx) => closeApp(app, ctx))

const messages = (role: string) => app.page.locator(`[data-testid="message"][data-role="${role}"]`)

describe('opencode commands in the composer', () => {
  it('lists the config’s commands with their descriptions and runs one as a checkpointed, retakeable turn', async () => {
    const { page, fake, project } = app
    const box = page.getByTestId('composer')
    await box.fill('/')
    const menu = page.getByRole('listbox')
    await menu.getByRole('option', { name: /\/greet …\s*Writes a greeting file/ }).waitFor()
    // Built-in commands come from the server too.
    await menu.getByRole('option', { name: /\/init/ }).waitFor()

    await box.fill('/gre')
    await box.press('Tab')
    expect(await box.inputValue()).toBe('/greet ')
    await box.pressSequentially('world')
    await box.press('Enter')

    await messages('assistant')
      .getByText(/done: write/)
      .waitFor()
    await turnsRecorded(page)
    expect(readFileSync(join(project, 'greeting.txt'), 'utf8')).toContain('hello world')
    expect(fake.chatRequests().some((r) => r.lastUserText().includes('WRITE greeting.txt hello world'))).toBe(true)
    expect(await page.getByTestId('slash-notice').count()).toBe(0)

    // Checkpointed: the panel lists the turn with the file it added.
    await page.getByTestId('open-checkpoints').click()
    const panel = page.getByTestId('checkpoints-panel')
    await waitForCount(panel.locator('[data-testid="checkpoint-turn"][data-status="sealed"]'), 1, 30_000)
    await waitForText(panel.getByTestId('turn-summary'), '1 added')
    await page.keyboard.press('Escape')
    await panel.waitFor({ state: 'detached' })

    // Retakeable: ↺ asks again with the same (expanded) message.
    const asked = fake.chatRequests().filter((r) => r.lastUserText().includes('WRITE greeting.txt hello world')).length
    const user = messages('user').first()
    await user.hover()
    await user.getByTestId('retake').click()
    // The turn wrote a file: the retake sheet says what goes back before anything happens.
    const sheet = page.getByTestId('restore-sheet')
    await waitForText(sheet, 'greeting.txt')
    await sheet.getByTestId('restore-confirm').click()
    await until(() => fake.chatRequests().filter((r) => r.lastUserText().includes('WRITE greeting.txt hello world')).length > asked, 'the retaken command turn')
    await waitForCount(messages('user'), 1)
    await turnsRecorded(page)
    expect(readFileSync(join(project, 'greeting.txt'), 'utf8')).toContain('hello world')
  })
})
