/**
 * The model palette and the command palette in Chromium, against the real opencode server: a model
 * found by typing part of its name is the one the provider is asked for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync } from 'node:fs'
import { closeApp, startApp, until, type AppUnderTest } from './harness'
import { chooseInPalette, currentModel, pickModel, withGoodModels } from './pick-model'

let app: AppUnderTest | undefined

beforeEach(async (ctx) => {
  // The catalogue test starts its own app (230 providers); the others share this setup.
  if (!ctx.task.name.startsWith('230 providers')) app = await startApp({ git: true, config: withGoodModels })
})
afterEach(async (ctx) => {
  if (app) await closeApp(app, ctx)
  app = undefined
})

const assistantMessages = () => app!.page.locator('[data-testid="message"][data-role="assistant"]')

async function send(text: string) {
  await app!.page.getByTestId('composer').fill(text)
  await app!.page.getByTestId('composer').press('Enter')
}

describe('model palette in browser mode', () => {
  it('typing part of a model’s name and Enter chooses it; the next prompt goes to that model', async () => {
    const { page, fake } = app!
    await until(async () => (await currentModel(page)) === 'fake/echo', 'the model list')
    await page.getByTestId('model-picker').click()
    const palette = page.getByTestId('model-palette')
    // Grouped by provider, with context size and what the model takes.
    await palette
      .getByRole('group', { name: 'Fake Anthropic' })
      .getByRole('option', { name: /^Claude Fake · Fake Anthropic, 128K context, takes files and images/ })
      .waitFor()
    await page.screenshot({ path: 'test-results/guide-model-palette.png' })
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
    await palette
      .getByRole('group', { name: 'Recent' })
      .getByRole('option', { name: /^Echo 2/ })
      .waitFor()
    await page.keyboard.press('Escape')
    await until(async () => (await palette.count()) === 0, 'Esc to close the palette')
  })

  it('Ctrl+K reaches a model by name and makes it the session’s model', async () => {
    const { page, fake } = app!
    await send('first')
    await assistantMessages().last().getByText('echo: first').waitFor()
    await page.getByTestId('composer').focus()
    // In dark mode, to see the palette follow the theme (screenshot in test-results/).
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.keyboard.press('Control+k')
    const palette = page.getByTestId('command-palette')
    await palette.getByTestId('palette-session').first().waitFor()
    await palette.getByTestId('palette-search').fill('claude')
    await palette.locator('[role="option"][aria-selected="true"][data-model="anth/claude-fake"]').waitFor()
    mkdirSync('test-results', { recursive: true })
    await page.screenshot({ path: 'test-results/command-palette-dark.png' })
    await page.keyboard.press('Enter')
    await until(async () => (await currentModel(page)) === 'anth/claude-fake', 'the session’s model to change')
    expect(await palette.count()).toBe(0)
    await send('second')
    await until(() => fake.chatRequests('claude-fake').length === 1, 'the prompt to reach claude-fake')
    expect(fake.chatRequests('claude-fake')[0]!.lastUserText()).toBe('second')
  })

  it('Ctrl+K "good a" with Good B recent and in use: Enter makes Good A the model, and the prompt goes to it', async () => {
    const { page, fake } = app!
    await send('first')
    await assistantMessages().last().getByText('echo: first').waitFor()
    await pickModel(page, 'good/good-b')
    await page.getByTestId('composer').focus()
    await page.keyboard.press('Control+k')
    const palette = page.getByTestId('command-palette')
    await palette.getByTestId('palette-session').first().waitFor()
    // Typed as a user types, then Enter as soon as Good A is listed: the highlight must already be on it.
    await palette.getByTestId('palette-search').pressSequentially('good a')
    await palette.locator('[role="option"][data-model="good/good-a"]').waitFor()
    await page.keyboard.press('Enter')
    await until(async () => (await palette.count()) === 0, 'the palette to close')
    expect(await currentModel(page)).toBe('good/good-a')
    await send('second')
    await until(() => fake.chatRequests('good-a').length === 1, 'the prompt to reach good-a')
    expect(fake.chatRequests('good-a')[0]!.lastUserText()).toBe('second')
    expect(fake.chatRequests('good-b')).toHaveLength(0)
  })

  it('230 providers, 15 models each: the palette opens with a capped list and typing reaches the last one', async () => {
    const provider = Object.fromEntries(
      Array.from({ length: 230 }, (_, p) => [
        `p${p}`,
        {
          name: `Provider ${p}`,
          npm: '@ai-sdk/openai-compatible',
          // Never asked: the test only lists them.
          options: { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'unused' },
          models: Object.fromEntries(Array.from({ length: 15 }, (_, m) => [`model-${m}`, { name: `Model ${m} of ${p}`, limit: { context: 32_000, output: 4_096 } }])),
        },
      ]),
    )
    app = await startApp({ git: true, config: { provider, enabled_providers: Object.keys(provider), model: 'p0/model-0', small_model: 'p0/model-0' } })
    const { page } = app
    // The configured default shows before the provider list has loaded; the picker opens once it has.
    await until(async () => (await currentModel(page)) === 'p0/model-0' && (await page.getByTestId('model-picker').isEnabled()), 'the model list')
    const palette = page.getByTestId('model-palette')
    // Measured in the page: from the click to the rows being in the document.
    const openInPage = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const t0 = performance.now()
            const seen = new MutationObserver(() => {
              if (!document.querySelector('[role="option"]')) return
              seen.disconnect()
              resolve(performance.now() - t0)
            })
            seen.observe(document.body, { childList: true, subtree: true })
            document.querySelector<HTMLElement>('[data-testid="model-picker"]')!.click()
            setTimeout(() => reject(new Error('the model palette did not open')), 20_000)
          }),
      )
    const firstOpenMs = Math.round(await openInPage())
    await page.keyboard.press('Escape')
    await until(async () => (await palette.count()) === 0, 'Esc to close the palette')
    const openMs = Math.round(await openInPage())
    await palette.getByText(`${230 * 15 - 300} more models — type to narrow the list.`).waitFor()
    const t = Date.now()
    await palette.getByTestId('model-search').pressSequentially('229 model 14')
    await palette.locator('[role="option"][aria-selected="true"][data-model="p229/model-14"]').waitFor()
    const typeMs = Date.now() - t
    expect(await palette.getByRole('option').count()).toBe(1)
    await page.keyboard.press('Enter')
    await until(async () => (await currentModel(page)) === 'p229/model-14', 'the chosen model')
    console.info(`model palette in Chromium, 3450 models: first open ${firstOpenMs} ms, open ${openMs} ms, typing 12 keys ${typeMs} ms`)
  })
})
