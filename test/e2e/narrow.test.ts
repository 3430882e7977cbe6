/**
 * A narrow window (480 px): the sidebar is a drawer behind ☰, the chat and the composer get the
 * whole width, and choosing a session closes the drawer.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, waitForCount, type AppUnderTest } from './harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

describe('a narrow window', () => {
  it('at 480 px the sessions are a drawer and the composer spans the window', async () => {
    app = await startApp()
    const { page } = app
    await page.setViewportSize({ width: 480, height: 760 })
    await page.getByTestId('composer').fill('hello from a small window')
    await page.getByTestId('composer').press('Enter')
    await page.locator('[data-testid="message"][data-role="assistant"]').last().getByText('echo: hello from a small window').waitFor()

    const sidebar = page.locator('aside.sidebar')
    const inView = async () => ((await sidebar.boundingBox())?.x ?? -1) >= 0
    expect(await inView()).toBe(false)
    const composer = (await page.getByTestId('composer').boundingBox())!
    expect(composer.width).toBeGreaterThan(240)
    await page.screenshot({ path: 'test-results/narrow-chat.png' })

    await page.getByTestId('sidebar-toggle').click()
    await page.waitForFunction(() => (document.querySelector('aside.sidebar')?.getBoundingClientRect().x ?? -1) >= 0)
    await page.screenshot({ path: 'test-results/narrow-drawer.png' })
    await page.getByTestId('session-item').first().click()
    await waitForCount(page.getByTestId('sidebar-backdrop'), 0)
    await page.waitForFunction(() => (document.querySelector('aside.sidebar')?.getBoundingClientRect().right ?? 1) <= 0)

    // Wide again: the sidebar is a column, no drawer button.
    await page.setViewportSize({ width: 1200, height: 760 })
    await page.waitForFunction(() => (document.querySelector('aside.sidebar')?.getBoundingClientRect().x ?? -1) === 0)
    expect(await page.getByTestId('sidebar-toggle').isVisible()).toBe(false)
  })
})
