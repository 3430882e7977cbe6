/**
 * The agent's tools inherit the opencode server's environment: what Retake keeps secret must not
 * be there. A shell tool runs `env` in a real opencode server started by browser mode; its output
 * (sent back to the model) must not hold the browser-mode token or a remote server's password.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, type AppUnderTest } from '../e2e/harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

describe('secrets stay out of the agent’s reach', () => {
  it('`env` in a shell tool shows neither the browser-mode token nor Retake’s own settings', async () => {
    const token = 'tok-do-not-leak-7f3a9c1e'
    app = await startApp({ env: { RETAKE_WEB_TOKEN: token, RETAKE_REMOTE_PASSWORD: 'pw-do-not-leak-5b2d' } })
    const { page, fake } = app
    expect(app.url).toContain(token) // the host did take the token from its environment
    await page.getByTestId('composer').fill('BASH env')
    await page.getByTestId('composer').press('Enter')
    await page.locator('[data-testid="message"][data-role="assistant"]').last().getByText(/done/).waitFor()
    const seen = JSON.stringify(fake.chatRequests().at(-1)!.body)
    expect(seen).toMatch(/HOME=/) // the tool's output did reach the model
    expect(seen).not.toContain(token)
    expect(seen).not.toContain('pw-do-not-leak')
    expect(seen).not.toMatch(/RETAKE_/)
  })
})
