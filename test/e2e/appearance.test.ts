/**
 * Settings › Appearance, in Chromium against the real server: a theme chosen there applies at once,
 * outlasts a reload, and in both themes the chat with an answer (code, a tool card) passes the
 * accessibility check's contrast rule; the text size scales the text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, type AppUnderTest } from './harness'
import { seriousViolations } from './axe'

let app: AppUnderTest
beforeEach(async () => {
  app = await startApp()
})
afterEach(async (ctx) => closeApp(app, ctx))

/** The contrast check measures what is painted: wait until no transition is half-way (a fade-in). */
async function contrastViolations() {
  await app.page.mouse.move(0, 0)
  await app.page.waitForFunction(() => document.getAnimations().length === 0)
  return seriousViolations(app.page, { rules: ['color-contrast'] })
}

const background = () => app.page.evaluate(() => getComputedStyle(document.body).backgroundColor)
const bodySize = () => app.page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize))

async function choose(theme: 'Light' | 'Dark' | 'Same as the system') {
  const { page } = app
  await page.getByTestId('open-settings').click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await dialog.getByRole('radio', { name: theme }).check()
  await dialog.getByRole('button', { name: 'Close' }).click()
}

describe('appearance', () => {
  it('the theme chosen in Settings applies at once, survives a reload, and passes the contrast check', async () => {
    const { page, fake } = app
    await page.emulateMedia({ colorScheme: 'light' })
    fake.script({ kind: 'text', text: 'Here:\n\n```ts\nconst answer: number = 42 // the answer\n```\n\nand `inline` code.' })
    await page.getByTestId('composer').fill('show me code')
    await page.getByTestId('composer').press('Enter')
    await page.locator('[data-role="assistant"] .code-block').waitFor()

    const light = await background()
    expect(await contrastViolations()).toEqual([])

    await choose('Dark')
    const dark = await background()
    expect(dark).not.toBe(light)
    expect(await contrastViolations()).toEqual([])

    await page.reload()
    await page.locator('[data-app-state="ready"]').waitFor()
    expect(await background()).toBe(dark)

    // "Same as the system" follows the system's scheme again.
    await choose('Same as the system')
    expect(await background()).toBe(light)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await background()).toBe(dark)
  })

  it('the text size scales the text and outlasts a reload', async () => {
    const { page } = app
    const before = await bodySize()
    await page.getByTestId('open-settings').click()
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('combobox', { name: 'Text size' }).selectOption('larger')
    expect(await bodySize()).toBeCloseTo(before * 1.25, 1)
    await page.reload()
    await page.locator('[data-app-state="ready"]').waitFor()
    expect(await bodySize()).toBeCloseTo(before * 1.25, 1)
  })
})
