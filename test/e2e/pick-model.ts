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
