/**
 * Chooses a model the way a user does with the model palette: open it, type part of the name, and
 * press Enter once the highlighted row is the model meant (waiting on that row, never on time).
 */
import type { Locator, Page } from 'playwright-core'
import { until } from './harness'

/** Types `query` into an open model palette inside `within` and chooses the row for `key`. */
export async function chooseInPalette(page: Page, within: Locator, query: string, key: string): Promise<void> {
  await within.getByTestId('model-search').fill(query)
  await within.locator(`[role="option"][aria-selected="true"][data-model="${key}"]`).waitFor()
  await page.keyboard.press('Enter')
}

/** The chat's model picker: `key` is `provider/model`, `query` what the user types (default: the model id). */
export async function pickModel(page: Page, key: string, query = key.slice(key.indexOf('/') + 1)): Promise<void> {
  await page.getByTestId('model-picker').click()
  await chooseInPalette(page, page.getByTestId('model-palette'), query, key)
  await until(async () => (await currentModel(page)) === key, `the model picker to show ${key}`)
}

export const currentModel = (page: Page) => page.getByTestId('model-picker').getAttribute('data-model')

/**
 * Test config with three models named alike under a provider whose name holds the letters people
 * type ("Good Cloud Labs": a "c" and an "a"), answered by the fake LLM like its own models.
 */
export function withGoodModels(base: { enabled_providers?: string[]; provider?: Record<string, unknown> }): Record<string, unknown> {
  const fake = base.provider!.fake as { options: { baseURL: string } }
  return {
    ...base,
    enabled_providers: [...(base.enabled_providers ?? []), 'good'],
    provider: {
      ...base.provider,
      good: {
        name: 'Good Cloud Labs',
        npm: '@ai-sdk/openai-compatible',
        options: { baseURL: fake.options.baseURL, apiKey: 'fake-key' },
        models: Object.fromEntries(['a', 'b', 'c'].map((x) => [`good-${x}`, { name: `Good ${x.toUpperCase()}`, limit: { context: 128_000, output: 8_192 } }])),
      },
    },
  }
}
