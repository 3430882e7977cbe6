/**
 * Keyboard only, in Chromium: the restore sheet opened with R keeps Tab inside it and gives focus
 * back to the message on Esc; the Edit box gives focus back to its message on Esc, and opens above
 * the last message rather than under the composer; the narrow window's drawer closes with Esc, and
 * no menu makes the page scroll sideways.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { type AppUnderTest, closeApp, startApp, turnsRecorded, until, waitForCount } from './harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

const messages = (role: 'user' | 'assistant') => app!.page.locator(`[data-testid="message"][data-role="${role}"]`)
const hasFocus = (l: Locator) => l.evaluate((el) => el === document.activeElement)
/** The focused element's accessible-ish name and whether it is inside the open dialog. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    return { name: el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '', inDialog: !!el?.closest('dialog[open]') }
  })

async function send(text: string, answer: string | RegExp) {
  const composer = app!.page.getByRole('textbox', { name: 'Message', exact: true })
  await composer.fill(text)
  await composer.press('Enter')
  await messages('assistant').last().getByText(answer).waitFor()
  await turnsRecorded(app!.page)
}

describe('keyboard only', () => {
  it('R opens the restore sheet with focus on Cancel; Tab stays in it; Esc closes it and focus is on the message again', async () => {
    app = await startApp({ files: { 'README.md': '# demo\n' } })
    const { page, fake } = app
    await send('WRITE notes.txt from the agent', /done/)
    const asked = fake.chatRequests().length
    const message = messages('assistant').last()
    await message.focus()
    await page.keyboard.press('r')
    const sheet = page.getByRole('dialog', { name: 'Retake this turn' })
    await sheet.getByRole('button', { name: 'Retake', exact: true }).and(page.locator(':enabled')).waitFor()
    expect(await hasFocus(sheet.getByRole('button', { name: 'Cancel', exact: true }))).toBe(true)

    const reached = new Set<string>()
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab')
      const f = await focused(page)
      expect(f.inDialog, `Tab ${i + 1} left the sheet for “${f.name}”`).toBe(true)
      reached.add(f.name)
    }
    expect(reached).toContain('Cancel')
    expect(reached).toContain('Retake')
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Shift+Tab')
      expect((await focused(page)).inDialog).toBe(true)
    }

    await page.keyboard.press('Escape')
    await waitForCount(sheet, 0)
    await until(() => hasFocus(message), 'focus to be back on the message')
    expect(fake.chatRequests()).toHaveLength(asked) // nothing was retaken
  })

  it('the Edit box opened on the last message stays above the composer; Esc puts focus back on the message', async () => {
    app = await startApp()
    const { page } = app
    await page.setViewportSize({ width: 1000, height: 560 })
    for (const text of ['one', 'two', 'three']) await send(text, `echo: ${text}`)
    const last = messages('user').last()
    await last.hover()
    await last.getByRole('button', { name: /Edit/ }).click()
    const edit = page.getByRole('dialog', { name: 'Edit and retake' })
    await edit.waitFor()
    const box = (await edit.boundingBox())!
    const composer = (await page.getByRole('textbox', { name: 'Message', exact: true }).boundingBox())!
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.y + box.height).toBeLessThanOrEqual(composer.y)
    await page.screenshot({ path: 'test-results/edit-above-composer.png' })

    await page.keyboard.press('Escape')
    await waitForCount(edit, 0)
    await until(() => hasFocus(last), 'focus to be back on the edited message')
  })

  it('at 420 px: Esc closes the drawer, and neither the Edit box nor Retake with… scrolls the page sideways', async () => {
    app = await startApp()
    const { page } = app
    await page.setViewportSize({ width: 420, height: 760 })
    await send('hello from a small window', 'echo: hello from a small window')
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth || document.body.scrollWidth > document.body.clientWidth)
    const inWindow = async (l: Locator) => {
      const b = (await l.boundingBox())!
      return b.x >= 0 && b.x + b.width <= 420
    }

    const toggle = page.getByRole('button', { name: 'Show sessions' })
    await toggle.click()
    await page.getByTestId('sidebar-backdrop').waitFor()
    await page.getByRole('button', { name: 'Hide sessions' }).focus()
    await page.keyboard.press('Escape')
    await waitForCount(page.getByTestId('sidebar-backdrop'), 0)
    expect(await hasFocus(page.getByRole('button', { name: 'Show sessions' }))).toBe(true)

    const user = messages('user').first()
    await user.hover()
    await user.getByRole('button', { name: 'Retake with another model' }).click()
    const menu = page.getByRole('dialog', { name: 'Retake with…' })
    await menu.waitFor()
    expect(await inWindow(menu)).toBe(true)
    expect(await sideways()).toBe(false)
    await page.keyboard.press('Escape')
    await waitForCount(menu, 0)

    await user.hover()
    await user.getByRole('button', { name: /Edit/ }).click()
    const edit = page.getByRole('dialog', { name: 'Edit and retake' })
    await edit.waitFor()
    expect(await inWindow(edit)).toBe(true)
    expect(await sideways()).toBe(false)
    await page.screenshot({ path: 'test-results/narrow-edit.png' })
  })
})
