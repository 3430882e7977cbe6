/**
 * The model palette and the command palette in Chromium, against the real opencode server: a model
 * found by typing part of its name is the one the provider is asked for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, until, type AppUnderTest } from './harness'
import { chooseInPalette, currentModel } from './pick-model'

let app: AppUnderTest

beforeEach(async () => {
  app = await startApp({ git: true })
})
afterEach(async (ctx) => closeApp(app, ctx))

const assistantMessages = () => app.page.locator('[data-testid="message"][data-role="assistant"]')

async function send(text: string) {
  await app.page.getByTestId('composer').fill(text)
  await app.page.getByTestId('composer').press('Enter')
}

describe('model palette in browser mode', () => {
  it('typing part of a model’s name and Enter chooses it; the next prompt goes to that model', async () => {
    const { page, fake } = app
    await until(async () => (await currentModel(page)) === 'fake/echo', 'the model list')
    await page.getByTestId('model-picker').click()
    const palette = page.getByTestId('model-palette')
    // Grouped by provider, with context size and what the model takes.
    await palette.getByRole('group', { name: 'Fake Anthropic' }).getByRole('option', { name: /^Claude Fake · Fake Anthropic, 128K context, takes files and images/ }).waitFor()
    // "o 2": both words must match, only Echo 2 has them.
    await chooseInPalette(page, palette, 'o 2', 'fake/echo-2')
    await until(async () => (await palette.count()) === 0, 'the palette to close')
    expect(await currentModel(page)).toBe('fake/echo-2')
    // Choosing hands focus back to the picker, as Esc does.
    expect(await page.getByTestId('model-picker').evaluate((el) => el === document.activeElement)).toBe(true)

    await send('which model am I talking to')
    await until(() => fake.chatRequests('echo-2').length === 1, 'the prompt to reach echo-2')
    await assistantMessages().last().getByText('echo: which model am I talking to').waitFor()
    expect(fake.chatRequests().map((r) => r.model)).toEqual(['echo-2'])

    // The model chosen is now first among the recent models.
    await page.getByTestId('model-picker').click()
    await palette.getByRole('group', { name: 'Recent' }).getByRole('option', { name: /^Echo 2/ }).waitFor()
    await page.keyboard.press('Escape')
    await until(async () => (await palette.count()) === 0, 'Esc to close the palette')
  })

  it('Ctrl+K reaches a model by name and makes it the session’s model', async () => {
    const { page, fake } = app
    await send('first')
    await assistantMessages().last().getByText('echo: first').waitFor()
    await page.getByTestId('composer').focus()
    await page.keyboard.press('Control+k')
    const palette = page.getByTestId('command-palette')
    await palette.getByTestId('palette-search').fill('claude')
    await palette.locator('[role="option"][aria-selected="true"][data-model="anth/claude-fake"]').waitFor()
    await page.keyboard.press('Enter')
    await until(async () => (await currentModel(page)) === 'anth/claude-fake', 'the session’s model to change')
    expect(await palette.count()).toBe(0)
    await send('second')
    await until(() => fake.chatRequests('claude-fake').length === 1, 'the prompt to reach claude-fake')
    expect(fake.chatRequests('claude-fake')[0]!.lastUserText()).toBe('second')
  })
})
