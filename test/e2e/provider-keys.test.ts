/**
 * A provider key saved in Retake works at once, without restarting anything: opencode builds a
 * project's providers once, so Retake reloads the project's instance when every session is idle.
 * Real opencode server; the fake LLM shows which key each request carried.
 */
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
})
