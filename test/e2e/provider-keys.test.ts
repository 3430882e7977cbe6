/**
 * A provider key saved in Retake works at once, without restarting anything: opencode builds a
 * project's providers once, so Retake reloads the project's instance when every session is idle.
 * Real opencode server; the fake LLM shows which key each request carried.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, until, waitForText, type AppUnderTest } from './harness'
import { pickModel } from './pick-model'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

describe('provider keys', () => {
  it('a key saved in the Keys dialog is the one the next prompt sends, with no restart', async () => {
    app = await startApp({
      config: (base) => ({
        ...base,
        enabled_providers: [...(base.enabled_providers ?? []), 'keyed'],
        provider: {
          ...base.provider,
          // A provider with no key in the config: the user gives it one in Retake.
          keyed: { name: 'Keyed', npm: '@ai-sdk/openai-compatible', options: { baseURL: base.provider!.fake!.options!.baseURL }, models: { kmodel: { name: 'Keyed model' } } },
        },
      }),
    })
    const { page, fake } = app
    await page.getByTestId('open-keys').click()
    const dialog = page.getByTestId('provider-keys')
    await dialog.getByTestId('key-provider').selectOption('keyed')
    await dialog.getByTestId('key-input').fill('sk-saved-in-retake')
    await dialog.getByTestId('key-save').click()
    await waitForText(dialog.getByTestId('keys-saved'), 'no restart needed')
    await page.keyboard.press('Escape')

    await pickModel(page, 'keyed/kmodel', 'kmodel')
    await page.getByTestId('composer').fill('hello with my key')
    await page.getByTestId('composer').press('Enter')
    await until(() => fake.chatRequests('kmodel').length > 0, 'the prompt to reach the keyed provider')
    expect(fake.chatRequests('kmodel')[0]!.headers.authorization).toBe('Bearer sk-saved-in-retake')
  })

  it('a provider of one’s own: the dialog writes its opencode config entry; pasted in, it takes a key and answers', async () => {
    app = await startApp()
    const { page, fake, project } = app
    const config = JSON.parse(readFileSync(join(app.root, 'opencode.json'), 'utf8')) as { enabled_providers: string[]; provider: { fake: { options: { baseURL: string } } } }
    await page.getByTestId('open-keys').click()
    let dialog = page.getByRole('dialog', { name: 'Providers: keys and sign-in' })
    await dialog.getByRole('searchbox', { name: 'Search providers' }).fill('custom')
    await dialog.getByRole('combobox', { name: 'Provider' }).selectOption({ label: 'Custom provider (OpenAI-compatible URL)' })
    const form = dialog.getByRole('form', { name: 'Custom provider' })
    await form.getByRole('textbox', { name: 'Name' }).fill('my-server')
    await form.getByRole('textbox', { name: 'URL' }).fill(config.provider.fake.options.baseURL)
    await form.getByRole('textbox', { name: 'Models' }).fill('mine')
    await form.getByRole('button', { name: 'Make the config entry' }).click()
    const entry = JSON.parse((await form.getByLabel('Config entry', { exact: true }).textContent())!) as { provider: Record<string, unknown> }
    await form.getByRole('button', { name: 'Copy the config entry' }).waitFor()

    // What the user does with it: into the project's opencode.json (this test's server loads only
    // the providers it names), then Load, which reloads the project's providers.
    writeFileSync(join(project, 'opencode.json'), JSON.stringify({ ...entry, enabled_providers: [...config.enabled_providers, 'my-server'] }))
    await form.getByRole('button', { name: 'Load the config now' }).click()
    await dialog.getByRole('searchbox', { name: 'Search providers' }).fill('my-')
    await dialog.getByRole('combobox', { name: 'Provider' }).getByRole('option', { name: 'my-server' }).waitFor({ state: 'attached' })
    await page.keyboard.press('Escape')

    await page.getByTestId('open-keys').click()
    dialog = page.getByRole('dialog', { name: 'Providers: keys and sign-in' })
    await dialog.getByRole('searchbox', { name: 'Search providers' }).fill('my-')
    await dialog.getByRole('combobox', { name: 'Provider' }).selectOption('my-server')
    await dialog.getByTestId('key-input').fill('sk-my-server')
    await dialog.getByTestId('key-save').click()
    await waitForText(dialog.getByTestId('keys-saved'), 'no restart needed')
    await page.keyboard.press('Escape')

    await pickModel(page, 'my-server/mine', 'mine')
    await page.getByTestId('composer').fill('hello from my own server')
    await page.getByTestId('composer').press('Enter')
    await until(() => fake.chatRequests('mine').length > 0, 'the prompt to reach the custom provider')
    expect(fake.chatRequests('mine')[0]!.headers.authorization).toBe('Bearer sk-my-server')
  })
})
