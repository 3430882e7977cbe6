/**
 * `@` mentions in Chromium against the real server: typing `@` and part of a name finds the
 * project's file with opencode's search (a .gitignore'd file is not offered), picking it puts its
 * path in the text, and the model receives the file's content with the prompt.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, type AppUnderTest } from './harness'

let app: AppUnderTest
beforeEach(async () => {
  app = await startApp({
    git: true,
    files: { 'app-config.ts': 'export const secretSauce = 42\n', 'app-debug.log': 'noise\n', '.gitignore': '*.log\n' },
  })
})
afterEach(async (ctx) => closeApp(app, ctx))

describe('@ mentions', () => {
  it('finds a project file, attaches it the way opencode does, and the model receives its content', async () => {
    const { page, fake } = app
    const box = page.getByTestId('composer')
    await box.pressSequentially('what is in @app-')
    const list = page.getByRole('listbox', { name: 'Files and agents' })
    await list.getByRole('option', { name: /app-config\.ts/ }).waitFor()
    expect(await list.getByRole('option', { name: /app-debug\.log/ }).count()).toBe(0)
    await box.press('Enter')
    expect(await box.inputValue()).toBe('what is in @app-config.ts ')
    await box.press('Enter')

    const user = page.locator('[data-testid="message"][data-role="user"]').first()
    // Shown as opencode shows it: a chip with the file's name under the text.
    await user.getByTestId('attachment-chip').filter({ hasText: 'app-config.ts' }).waitFor()
    await page.locator('[data-testid="message"][data-role="assistant"]').last().getByText(/echo:/).first().waitFor()
    const request = fake.chatRequests().at(-1)!
    expect(JSON.stringify(request.body)).toContain('secretSauce = 42')
  })
})
