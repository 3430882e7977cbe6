/**
 * Attachments in Chromium through browser mode: attach by the file picker and by dropping on the
 * chat, send, see the chip (not a wall of text), open the viewer and compare what it shows with the
 * file's bytes; ↺ sends the provider the very same inline block (SHA-256 equal).
 */
import { mkdirSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseInlinedAttachment, sha256Hex, type InlinedAttachment } from '../../shared/attachments/inlined-attachment'
import { closeApp, startApp, until, waitForCount, waitForText, type AppUnderTest } from './harness'
import { pickModel, currentModel } from './pick-model'

let app: AppUnderTest

beforeEach(async () => {
  app = await startApp({ git: true })
})
afterEach(async (ctx) => closeApp(app, ctx))

const messages = (role: 'user' | 'assistant') => app.page.locator(`[data-testid="message"][data-role="${role}"]`)

// CRLF, a BOM, a blank line and no final newline: the viewer must show all of it.
const MARKDOWN = '\uFEFF# Release notes\r\n\r\n- faster **retake**\r\n- attachments\r\n\r\n```ts\r\nconst ok = true\r\n```'
const CSV = 'city,population\r\n"Paris, FR",2102650\r\nLyon,522250\r\n'

/** The inline attachments the provider received in the last user message of a request. */
function inlineBlocks(body: { messages?: { role: string; content: unknown }[] }): InlinedAttachment[] {
  const user = (body.messages ?? []).filter((m) => m.role === 'user').at(-1)
  if (!user) return []
  const texts =
    typeof user.content === 'string' ? [user.content] : (user.content as { type: string; text?: string }[]).flatMap((b) => (b.type === 'text' && b.text ? [b.text] : []))
  return texts.map(parseInlinedAttachment).filter((a): a is InlinedAttachment => a !== null)
}

/** What the viewer's source shows, as the page has it (textContent keeps CR and BOM). */
const viewerSource = () => app.page.getByTestId('viewer-source').evaluate((el) => el.textContent ?? '')

describe('attachments in browser mode', () => {
  it('picker: a markdown file is sent inline, shown as a chip, viewed exactly, and ↺ resends the same block', async () => {
    const { page, fake } = app
    const bytes = Buffer.from(MARKDOWN, 'utf8')
    await page.getByTestId('attach-input').setInputFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: bytes })
    const chip = page.getByTestId('composer-chip')
    await chip.waitFor()
    expect(await chip.textContent()).toMatch(/notes\.md.*B · markdown/)
    await page.getByTestId('composer').fill('summarise the notes')
    mkdirSync('test-results', { recursive: true })
    await until(async () => (await currentModel(page)) === 'fake/echo', 'the model list')
    await page.screenshot({ path: 'test-results/attachments-composer.png' })
    await page.getByTestId('composer').press('Enter')

    // The timeline shows a chip under the text, not the file's content.
    const user = messages('user').first()
    await user.getByTestId('attachment-chip').waitFor()
    expect(await user.textContent()).toContain('summarise the notes')
    expect(await user.textContent()).not.toContain('Release notes')
    await waitForCount(page.getByTestId('composer-chip'), 0)
    await messages('assistant')
      .last()
      .getByText(/echo: /)
      .first()
      .waitFor()

    // The provider got the file as an inline text block with the file's own hash.
    await until(() => fake.chatRequests().length === 1, 'the first chat request')
    const [first] = inlineBlocks(fake.chatRequests()[0]!.body)
    expect(first).toMatchObject({ name: 'notes.md', mime: 'text/markdown', sha256: sha256Hex(bytes) })

    // The viewer: rendered markdown, then the source — exactly the file's bytes.
    await user.getByTestId('attachment-chip').click()
    const viewer = page.getByTestId('attachment-viewer')
    await viewer.getByRole('heading', { name: 'Release notes' }).waitFor()
    await page.screenshot({ path: 'test-results/attachments-viewer-rendered.png' })
    await viewer.getByTestId('viewer-toggle').click()
    const shown = await viewerSource()
    expect(Buffer.from(shown, 'utf8').equals(bytes)).toBe(true)
    await page.screenshot({ path: 'test-results/attachments-viewer-source.png' })
    await page.keyboard.press('Escape')
    await waitForCount(viewer, 0)

    // ↺: the same inline block reaches the provider again, hash equal.
    await user.hover()
    await user.getByTestId('retake').click()
    await until(() => fake.chatRequests().length === 2, 'the retaken chat request')
    const [again] = inlineBlocks(fake.chatRequests()[1]!.body)
    expect(again!.sha256).toBe(first!.sha256)
    expect(again!.text).toBe(MARKDOWN)
    await waitForCount(messages('user'), 1)
    await messages('user').first().getByTestId('attachment-chip').waitFor()
  })

  it('drop: a CSV dropped on the chat is attached, sent, and shown as a table and as its exact source', async () => {
    const { page, fake } = app
    await page.getByTestId('composer').fill('what is in it?')
    await page.evaluate((csv) => {
      const dt = new DataTransfer()
      dt.items.add(new File([csv], 'cities.csv', { type: 'text/csv' }))
      const target = document.querySelector('.chat')!
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }))
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
    }, CSV)
    await page.getByTestId('composer-chip').filter({ hasText: 'cities.csv' }).waitFor()
    // Dropping did not touch the typed text.
    expect(await page.getByTestId('composer').inputValue()).toBe('what is in it?')
    await page.getByTestId('send').click()

    const user = messages('user').first()
    await user.getByTestId('attachment-chip').click()
    const table = page.getByTestId('viewer-table')
    await table.waitFor()
    expect(await table.locator('tbody tr').count()).toBe(2)
    expect(await table.locator('tbody tr').first().locator('td').first().textContent()).toBe('Paris, FR')
    await page.getByTestId('viewer-toggle').click()
    expect(await viewerSource()).toBe(CSV)

    await page.getByTestId('viewer-toggle').click()
    await page.screenshot({ path: 'test-results/attachments-viewer-table.png' })
    await until(() => fake.chatRequests().length >= 1, 'the chat request')
    const [sent] = inlineBlocks(fake.chatRequests()[0]!.body)
    expect(sent).toMatchObject({ name: 'cities.csv', text: CSV, sha256: sha256Hex(Buffer.from(CSV, 'utf8')) })
  })

  it('a real text/markdown file part from another client is a chip, fails on the Anthropic adapter, and ↺ repairs it', async () => {
    const { page, fake, project } = app
    const bytes = Buffer.from(MARKDOWN, 'utf8')
    await pickModel(page, 'anth/claude-fake')
    // Another opencode client sends the file as a file part, through the same server.
    await page.evaluate(
      async ([dir, b64]) => {
        const q = `?directory=${encodeURIComponent(dir!)}`
        const headers = { 'content-type': 'application/json', 'x-opencode-directory': encodeURIComponent(dir!) }
        const created = await (await fetch(`/opencode/session${q}`, { method: 'POST', headers, body: '{}' })).json()
        await fetch(`/opencode/session/${created.id}/prompt_async${q}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            model: { providerID: 'anth', modelID: 'claude-fake' },
            parts: [
              { type: 'text', text: 'read my notes' },
              { type: 'file', mime: 'text/markdown', filename: 'notes.md', url: `data:text/markdown;base64,${b64}` },
            ],
          }),
        })
      },
      [project, bytes.toString('base64')],
    )
    await page.getByTestId('session-item').first().click()
    const user = messages('user').first()
    await waitForText(page.getByTestId('error-block'), /functionality not supported/)
    const chip = user.getByTestId('attachment')
    await chip.waitFor()
    expect(await chip.getAttribute('data-inline')).toBe('false')
    expect(fake.chatRequests()).toHaveLength(0)

    // The file part opens in the same viewer, with the bytes that were sent.
    await user.getByTestId('attachment-chip').click()
    await page.getByTestId('viewer-toggle').click()
    expect(Buffer.from(await viewerSource(), 'utf8').equals(bytes)).toBe(true)
    await page.keyboard.press('Escape')

    // ↺ on the failed turn: the file goes inline and the same Claude answers.
    await user.hover()
    await user.getByTestId('retake').click()
    await messages('assistant')
      .last()
      .getByText(/echo: /)
      .first()
      .waitFor()
    await waitForCount(page.getByTestId('error-block'), 0)
    const [req] = fake.chatRequests('claude-fake')
    const [block] = inlineBlocks(req!.body)
    expect(block).toMatchObject({ name: 'notes.md', sha256: sha256Hex(bytes) })
    await until(async () => (await messages('user').first().getByTestId('attachment').getAttribute('data-inline')) === 'true', 'the repaired message')
  })
})
