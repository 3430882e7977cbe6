/**
 * An agent-written page reached from a model's link, in real Chromium against the real opencode server: the
 * agent writes an HTML file with script into the project, and the model's answer links to it (and to
 * opencode's own web app) through Retake's proxy. Neither a click on those links nor opening them by
 * hand may run script on Retake's origin, where it could call the bridge and, through opencode, run
 * any command.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, type AppUnderTest } from '../e2e/harness'

let app: AppUnderTest
beforeEach(async () => {
  app = await startApp()
})
afterEach(async (ctx) => closeApp(app, ctx))

const assistant = () => app.page.locator('[data-testid="message"][data-role="assistant"]')

async function send(text: string) {
  await app.page.getByTestId('composer').fill(text)
  await app.page.getByTestId('composer').press('Enter')
}

describe('a model’s links cannot act as Retake', () => {
  it('an agent-written HTML file linked from an answer never runs script on Retake’s origin', async () => {
    const { page, context, fake, origin, project } = app
    const ran: string[] = []
    await context.exposeBinding('pwned', ({ page: p }) => ran.push(p.url()))

    await send('WRITE evil.html <h1>evil</h1><img src=x onerror=pwned()><script>pwned()</script>')
    await assistant().last().getByText('done: write').waitFor()
    expect(existsSync(join(project, 'evil.html'))).toBe(true)

    const dir = encodeURIComponent(project)
    const targets = [
      '/opencode/evil.html',
      `${origin}/opencode/evil.html?directory=${dir}`,
      `${origin}/opencode/?directory=${dir}`,
      `${origin}/opencode/file/content?path=evil.html&directory=${dir}`,
    ]
    fake.script({ kind: 'text', text: targets.map((t, i) => `[link ${i}](${t})`).join(' · ') })
    await send('where is the report?')
    const answer = assistant().last()
    await answer.getByText('link 3').waitFor()

    const pagesBefore = context.pages().length
    for (let i = 0; i < targets.length; i++) {
      await answer.getByText(`link ${i}`).click()
      await answer.getByText(`link ${i}`).click({ button: 'middle' })
    }
    // Nothing navigated, nothing opened, nothing asked: these are not external links.
    expect(page.url().startsWith(origin)).toBe(true)
    expect(new URL(page.url()).pathname).toBe('/')
    expect(context.pages().length).toBe(pagesBefore)
    expect(await page.getByTestId('external-link').count()).toBe(0)
    await page.locator('[data-app-state="ready"]').waitFor()

    // Opened by hand in a tab of the same session (the worst case): never a page of Retake's origin.
    for (const target of targets) {
      const tab = await context.newPage()
      const url = new URL(target, origin).href
      const res = await tab.goto(url).catch(() => null) // a download aborts the navigation: fine
      if (res) {
        expect(res.headers()['content-type'] ?? '', url).not.toMatch(/html|svg|xml/)
        expect(await tab.evaluate(() => document.contentType), url).not.toBe('text/html')
      }
      await tab.close()
    }
    expect(ran).toEqual([])
  })

  it('an image in an answer that names another folder never makes opencode open it', async () => {
    const { page, fake, root } = app
    // A folder with an opencode plugin: opening it as opencode's directory would run the plugin.
    const victim = join(root, 'victim')
    const marker = join(root, 'victim.PWNED')
    mkdirSync(join(victim, '.opencode', 'plugin'), { recursive: true })
    writeFileSync(
      join(victim, '.opencode', 'plugin', 'x.js'),
      `import { writeFileSync } from 'node:fs'\nexport const Pwn = async () => { writeFileSync(${JSON.stringify(marker)}, 'ran'); return {} }\n`,
    )
    const src = `/opencode/session?directory=${encodeURIComponent(victim)}`
    fake.script({ kind: 'text', text: `Here is the chart: ![chart](${src}) and <img src="${src}&v=2">` })
    const asked: string[] = []
    page.on('request', (r) => {
      if (r.url().includes(encodeURIComponent(victim))) asked.push(r.url())
    })
    await send('show me the chart')
    await assistant().last().getByText('Here is the chart').waitFor()
    // Neither image (markdown or HTML) is an image in the answer: nothing was asked of Retake's origin.
    expect(await assistant().last().locator('img').count()).toBe(0)
    expect(asked).toEqual([])
    // Had one been asked (a page of the same site, a renderer bug), the host refuses the folder.
    expect(await page.evaluate(async (u) => (await fetch(u)).status, src)).toBe(403)
    expect(existsSync(marker)).toBe(false)
    await page.locator('[data-app-state="ready"]').waitFor()
  })

  it('an external link leaves only after the user saw the whole URL, and never in the app window', async () => {
    const { page, context, fake, origin } = app
    // The machine has no network: the outside site is answered by the browser context itself.
    await context.route('https://docs.example.invalid/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>docs</title>docs' }))
    fake.script({ kind: 'text', text: 'read [the docs](https://docs.example.invalid/guide?x=1)' })
    await send('docs please')
    await assistant().last().getByText('the docs').click()
    const dialog = page.getByTestId('external-link')
    await dialog.waitFor()
    expect(await dialog.getByTestId('external-link-url').textContent()).toBe('https://docs.example.invalid/guide?x=1')
    expect(new URL(page.url()).origin).toBe(origin)
    const popup = context.waitForEvent('page')
    await dialog.getByTestId('external-link-open').click()
    const opened = await popup
    await opened.waitForLoadState()
    expect(opened.url()).toBe('https://docs.example.invalid/guide?x=1')
    // A new browsing context with no opener: the app window stays where it was.
    expect(await opened.evaluate(() => window.opener)).toBeNull()
    expect(new URL(page.url()).origin).toBe(origin)
    await opened.close()
  })
})
