/**
 * In Chromium against the real opencode server: a turn's tool calls read as cards (the file, the
 * command, the output), and /retake typed in the composer retakes the last turn the way ↺ does —
 * through the restore sheet when the turn changed files — without ever sending "/retake" as text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { closeApp, startApp, until, waitForCount, waitForText, type AppUnderTest } from './harness'

let app: AppUnderTest

beforeEach(async () => {
  app = await startApp({ git: true })
})
afterEach(async (ctx) => closeApp(app, ctx))

const messages = (role: 'user' | 'assistant') => app.page.locator(`[data-testid="message"][data-role="${role}"]`)

async function send(text: string, answer: string | RegExp) {
  await app.page.getByTestId('composer').fill(text)
  await app.page.getByTestId('composer').press('Enter')
  await messages('assistant').last().getByText(answer).waitFor()
  await app.page.getByTestId('status-line').getByText(/idle/i).waitFor()
}

describe('tool cards and slash commands', () => {
  it('WRITE and BASH show readable cards; /retake opens the restore sheet and retakes the turn', async () => {
    const { page, fake, project } = app
    await send('WRITE notes.txt hello from the agent ; BASH echo tool-output-here', 'done: write, bash')

    const write = page.locator('[data-testid="tool-call"][data-tool="write"]').first()
    const bash = page.locator('[data-testid="tool-call"][data-tool="bash"]').first()
    // Collapsed: one line naming the file (relative to the project) and the command.
    await waitForText(write.getByTestId('tool-summary'), /^notes\.txt$/)
    await waitForText(bash.getByTestId('tool-summary'), '$ echo tool-output-here')
    await waitForText(bash.getByTestId('tool-detail'), 'exit 0')
    await waitForCount(page.getByTestId('tool-body'), 0)
    // Expanded: the output itself.
    await bash.getByTestId('tool-toggle').click()
    await waitForText(bash.getByTestId('bash-output'), 'tool-output-here')
    await write.getByTestId('tool-toggle').press('Enter')
    await waitForText(write.getByTestId('written-content'), 'hello from the agent')
    expect(existsSync(join(project, 'notes.txt'))).toBe(true)
    await page.screenshot({ path: 'test-results/guide-tool-cards.png' })

    const before = fake.chatRequests().length
    fake.script({ kind: 'text', text: 'retaken by the slash command' })
    const composer = page.getByTestId('composer')
    await composer.fill('/ret')
    await waitForText(page.getByTestId('slash-menu'), '/retake')
    await composer.press('Enter')
    // The turn wrote a file: the same sheet as ↺, naming it.
    const sheet = page.getByTestId('restore-sheet')
    await waitForText(sheet.getByTestId('restore-remove'), 'notes.txt')
    await sheet.getByTestId('restore-confirm').click()
    await until(() => fake.chatRequests().length > before, 'the retake to reach the fake LLM')
    await messages('assistant').last().getByText('retaken by the slash command').waitFor()
    expect(fake.chatRequests().at(-1)!.lastUserText()).toBe('WRITE notes.txt hello from the agent ; BASH echo tool-output-here')
    await waitForCount(messages('user'), 1)
    expect(await composer.inputValue()).toBe('')
    expect(fake.chatRequests().some((r) => r.lastUserText().includes('/retake'))).toBe(false)
  })

  it('/retake with a model name retakes a turn that changed no files at once, with that model', async () => {
    const { page, fake } = app
    await send('plain question', 'echo: plain question')
    const composer = page.getByTestId('composer')
    await composer.fill('/retake echo-2')
    await composer.press('Enter')
    await until(() => fake.chatRequests('echo-2').length === 1, 'the retake to reach the fake LLM')
    await messages('assistant').last().locator('.message-head', { hasText: 'echo-2' }).waitFor()
    expect(fake.chatRequests().map((r) => r.model)).toEqual(['echo', 'echo-2'])
    expect(fake.chatRequests('echo-2')[0]!.lastUserText()).toBe('plain question')
    await waitForCount(messages('user'), 1)
  })
})
