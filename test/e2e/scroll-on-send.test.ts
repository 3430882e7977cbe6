/**
 * Sending while scrolled up to read: the view goes to the end, shows the message sent, and follows
 * the answer as it arrives (in Chromium, against the real opencode server).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, turnsRecorded, until, type AppUnderTest } from './harness'

let app: AppUnderTest

beforeEach(async () => {
  app = await startApp({ git: true })
})
afterEach(async (ctx) => closeApp(app, ctx))

const messages = (role: 'user' | 'assistant') => app.page.locator(`[data-testid="message"][data-role="${role}"]`)

async function send(text: string) {
  await app.page.getByTestId('composer').fill(text)
  await app.page.getByTestId('composer').press('Enter')
}

/** How far the timeline is from its end, and whether `text` is on screen inside it. */
function view(text: string) {
  return app.page.getByTestId('timeline').evaluate((el, wanted) => {
    const box = el.getBoundingClientRect()
    const rows = [...el.querySelectorAll<HTMLElement>('[data-testid="message"]')].filter((m) => m.textContent?.includes(wanted))
    const seen = rows.some((m) => {
      const r = m.getBoundingClientRect()
      return r.bottom > box.top && r.top < box.bottom
    })
    return { fromEnd: el.scrollHeight - el.scrollTop - el.clientHeight, seen }
  }, text)
}

describe('sending while scrolled up', () => {
  it('brings the view to the end: the message sent is on screen, and the view follows its answer', async () => {
    const { page } = app
    // Three long turns: several screens of conversation.
    for (const n of [1, 2, 3]) {
      const long = Array.from({ length: 40 }, (_, i) => `turn ${n} line ${i + 1}`).join('\n')
      await send(long)
      await messages('assistant').last().getByText(`echo: turn ${n} line 1`).waitFor()
    }
    // The turns over (nothing still re-rendering the end), then scrolled up with the wheel, as a reader does.
    await turnsRecorded(page)
    await page.getByTestId('timeline').hover()
    await page.mouse.wheel(0, -100_000)
    // Scrolled up: the timeline has let go of the end.
    await page.getByTestId('jump-to-bottom').waitFor()
    await until(async () => !(await view('turn 3 line 40')).seen, 'the last answer to be off screen')

    await send('where did my message go')
    await until(async () => (await view('where did my message go')).seen, 'the message sent to be on screen')
    await messages('assistant').last().getByText('echo: where did my message go').waitFor()
    await until(async () => {
      const v = await view('echo: where did my message go')
      return v.seen && v.fromEnd < 48
    }, 'the view to follow the answer to the end')
    expect(await page.getByTestId('jump-to-bottom').count()).toBe(0)
  })
})
