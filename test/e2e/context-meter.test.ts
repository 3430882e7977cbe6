/**
 * The session header's context meter, in Chromium against the real server: it appears with the first
 * answer, grows with the next turn (the conversation is sent again), and shows the cost opencode
 * computed from the model's price in the config.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, type AppUnderTest } from './harness'

let app: AppUnderTest
beforeEach(async () => {
  app = await startApp({
    // A price for the fake model (dollars per million tokens), so opencode reports a cost.
    config: (base) => {
      const fake = (base.provider as Record<string, { models: Record<string, Record<string, unknown>> }>).fake
      fake.models.echo = { ...fake.models.echo, cost: { input: 3, output: 15 } }
      return base
    },
  })
})
afterEach(async (ctx) => closeApp(app, ctx))

async function send(text: string) {
  await app.page.getByTestId('composer').fill(text)
  await app.page.getByTestId('composer').press('Enter')
  await app.page.locator('[data-role="assistant"]').last().getByText(`echo: ${text}`).waitFor()
}

const usedTokens = async () => {
  const name = (await app.page.getByTestId('context-meter').getAttribute('aria-label')) ?? ''
  return Number(/Context: ([\d,]+) tokens/.exec(name)?.[1].replace(/,/g, ''))
}

describe('context and cost in the header', () => {
  it('appears after the first answer, grows with the next turn, and shows the cost', async () => {
    const { page } = app
    expect(await page.getByTestId('context-meter').count()).toBe(0)
    await send('first question ' + 'with some words '.repeat(20))
    const meter = page.getByTestId('context-meter')
    await meter.waitFor()
    const first = await usedTokens()
    expect(first).toBeGreaterThan(0)
    expect(await meter.getAttribute('aria-label')).toMatch(/of 128,000 \(\d+%\)/)
    await page.getByTestId('session-cost').waitFor()
    expect(await page.getByTestId('session-cost').textContent()).toMatch(/^\$\d+\.\d+$/)

    await send('second question')
    await page.waitForFunction(
      (before) => Number(/Context: ([\d,]+)/.exec(document.querySelector('[data-testid="context-meter"]')?.getAttribute('aria-label') ?? '')?.[1].replace(/,/g, '')) > before,
      first,
    )
    expect(await usedTokens()).toBeGreaterThan(first)
  })
})
