/**
 * Export and import from the command palette, in Chromium against the real server: a session leaves
 * as opencode JSON and as Markdown, and the JSON comes back as a new session with the same messages,
 * whose history the model receives on the next prompt.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, type AppUnderTest } from './harness'

let app: AppUnderTest
beforeEach(async () => {
  app = await startApp()
})
afterEach(async (ctx) => closeApp(app, ctx))

const assistant = () => app.page.locator('[data-testid="message"][data-role="assistant"]')

async function send(text: string) {
  await app.page.getByTestId('composer').fill(text)
  await app.page.getByTestId('composer').press('Enter')
  await assistant().last().getByText(`echo: ${text}`).waitFor()
}

async function palette(action: string) {
  const { page } = app
  await page.keyboard.press('Control+k')
  const box = page.getByTestId('command-palette')
  await box.getByTestId('palette-search').fill(action)
  await box.getByRole('option', { name: action }).waitFor()
  await page.keyboard.press('Enter')
}

async function exported(action: string): Promise<{ name: string; text: string }> {
  const download = app.page.waitForEvent('download')
  await palette(action)
  const d = await download
  return { name: d.suggestedFilename(), text: readFileSync((await d.path())!, 'utf8') }
}

describe('take a session with you', () => {
  it('exports as opencode JSON and Markdown, and the JSON re-imports with the same messages', async () => {
    const { page, fake, root } = app
    await send('first question')
    await send('second question')
    const title = (await page.getByTestId('session-title').textContent()) ?? ''

    const json = await exported('Export this session as opencode JSON')
    expect(json.name).toMatch(/\.json$/)
    const data = JSON.parse(json.text)
    const texts = (d: { messages: Array<{ parts: Array<{ type: string; text?: string }> }> }) =>
      d.messages.map((m) =>
        m.parts
          .filter((p) => p.type === 'text')
          .map((p) => p.text)
          .join(''),
      )
    expect(texts(data)).toEqual(['first question', 'echo: first question', 'second question', 'echo: second question'])

    const md = await exported('Export this session as Markdown')
    expect(md.name).toMatch(/\.md$/)
    expect(md.text).toContain('## You\n\nfirst question')
    expect(md.text).toContain('echo: second question')

    const file = join(root, 'export.json')
    writeFileSync(file, json.text)
    const chooser = page.waitForEvent('filechooser')
    await palette('Import a session (opencode JSON)…')
    await (await chooser).setFiles(file)
    await page.getByTestId('session-title').getByText(`${title} (imported)`).waitFor()
    await assistant().getByText('echo: second question').waitFor()
    expect(await page.getByTestId('undo-toast').textContent()).toContain('(4 messages)')

    // The imported session is a conversation of its own whose history the model receives.
    const sessions = page.getByTestId('session-item')
    expect(await sessions.count()).toBe(2)
    const before = fake.chatRequests().length
    await send('third question')
    const asked = fake
      .chatRequests()
      .slice(before)
      .find((r) => r.lastUserText() === 'third question')
    expect(JSON.stringify(asked?.body)).toContain('first question')
  })

  it('a file that is not an export is refused in words and nothing is created', async () => {
    const { page, root } = app
    await send('only question')
    const file = join(root, 'notes.json')
    writeFileSync(file, JSON.stringify({ hello: 'world' }))
    const chooser = page.waitForEvent('filechooser')
    await palette('Import a session (opencode JSON)…')
    await (await chooser).setFiles(file)
    await page.getByTestId('transfer-problem').getByText('notes.json is not an opencode session export').waitFor()
    expect(await page.getByTestId('session-item').count()).toBe(1)
  })
})
