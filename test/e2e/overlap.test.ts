/**
 * The bug opencode's users report most bitterly about revert: "revert in one session wiped another
 * session's work". Two sessions of one project in Chromium against the real opencode server: while
 * session A's long turn runs, session B's turn creates a file and edits another. Retaking A keeps
 * all of B's work (offered as "changed while session B was running", kept by default), and still
 * rolls back what A itself did before B started.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { closeApp, startApp, until, waitForText, type AppUnderTest } from './harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

const messages = (role: 'user' | 'assistant') => app!.page.locator(`[data-testid="message"][data-role="${role}"]`)
const current = () => app!.page.locator('[data-testid="session-item"][aria-current="true"]').getAttribute('data-session-id')

async function send(text: string) {
  await app!.page.getByTestId('composer').fill(text)
  await app!.page.getByTestId('composer').press('Enter')
}

describe('a retake undoes only its own turn', () => {
  it('retaking session A keeps the files session B wrote while A was running', async () => {
    app = await startApp({ files: { 'shared.md': 'original\n' } })
    const { page, fake, project } = app

    // A's turn: writes its own file, then answers slowly (about 8 s) — B works meanwhile.
    await send('WRITE a-notes.txt from A')
    await messages('assistant').last().getByText(/done/).waitFor()
    fake.script({ kind: 'text', text: 'a long answer from A', chunks: 16, chunkDelayMs: 500 })
    await send('keep going')
    await page.locator('[data-testid="message"][data-role="assistant"][data-streaming="true"]').waitFor()
    const a = await current()

    // Session B, while A's second turn streams: creates a file and edits the shared one.
    await page.getByTestId('new-session').click()
    await send('WRITE b-work.txt made by B ; EDIT shared.md original changed-by-B')
    await messages('assistant').last().getByText(/done/).waitFor()
    await until(async () => ![null, a].includes(await current()), 'session B to exist')
    expect(readFileSync(join(project, 'b-work.txt'), 'utf8')).toContain('made by B')

    // Back to A once its answer is complete, and retake that second turn.
    await page.locator(`[data-testid="session-item"][data-session-id="${a}"]`).click()
    await messages('assistant').last().getByText('a long answer from A').waitFor()
    await page.getByTestId('status-line').getByText(/idle/i).waitFor()
    fake.script({ kind: 'text', text: 'retaken A' })
    const second = messages('user').last()
    await second.hover()
    await second.getByTestId('retry').click()
    const sheet = page.getByTestId('restore-sheet')
    const conflicts = sheet.getByTestId('restore-conflicts')
    await waitForText(conflicts, 'b-work.txt')
    await waitForText(conflicts, 'shared.md')
    await waitForText(conflicts, 'was running')
    expect(await conflicts.getByTestId('conflict-choice').first().inputValue()).toBe('keep')
    await sheet.getByTestId('restore-confirm').click()
    await messages('assistant').last().getByText('retaken A').waitFor()

    // B's work is intact; A's first turn (not retaken) keeps its file too.
    expect(readFileSync(join(project, 'b-work.txt'), 'utf8')).toContain('made by B')
    expect(readFileSync(join(project, 'shared.md'), 'utf8')).toBe('changed-by-B\n')
    expect(existsSync(join(project, 'a-notes.txt'))).toBe(true)
  })
})
