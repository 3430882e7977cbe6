/**
 * The bug opencode's users report most bitterly about revert: "revert in one session wiped another
 * session's work". Two sessions of one project in Chromium against the real opencode server: while
 * session A's long turn runs, session B's turn creates a file and edits another. Retaking A keeps
 * all of B's work (B's tools wrote it: "left as they are"), and still rolls back what A itself did
 * before B started. A file the user edits in their editor while A runs is offered as "changed
 * outside the agent", kept by default.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type AppUnderTest, closeApp, startApp, turnsRecorded, until, waitForText } from './harness'

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
    await turnsRecorded(page)
    fake.script({ kind: 'text', text: 'retaken A' })
    const second = messages('user').last()
    await second.hover()
    await second.getByTestId('retake').click()
    const sheet = page.getByTestId('restore-sheet')
    // B's tools wrote both files and A's turn ran none: they are B's work, left as they are and
    // not even offered for rollback.
    const left = sheet.getByTestId('restore-left')
    await waitForText(left, 'b-work.txt')
    await waitForText(left, 'shared.md')
    await waitForText(left, 'not this one')
    expect(await sheet.getByTestId('restore-conflicts').count()).toBe(0)
    await sheet.getByTestId('restore-confirm').click()
    await messages('assistant').last().getByText('retaken A').waitFor()

    // B's work is intact; A's first turn (not retaken) keeps its file too.
    expect(readFileSync(join(project, 'b-work.txt'), 'utf8')).toContain('made by B')
    expect(readFileSync(join(project, 'shared.md'), 'utf8')).toBe('changed-by-B\n')
    expect(existsSync(join(project, 'a-notes.txt'))).toBe(true)
  })

  it('a file the user edits in an editor while the turn runs is offered as changed outside the agent, kept by default', async () => {
    app = await startApp({ files: { 'notes.md': 'my notes\n' } })
    const { page, fake, project } = app
    // A's turn writes a file with its tool, then streams slowly; the user saves notes.md meanwhile.
    fake.script(
      { kind: 'tool', calls: [{ name: 'write', args: { filePath: join(project, 'made-by-a.txt'), content: 'from A\n' } }] },
      { kind: 'text', text: 'a slow wrap-up', chunks: 12, chunkDelayMs: 300 },
    )
    await send('write the file')
    await page.locator('[data-testid="message"][data-role="assistant"][data-streaming="true"]').waitFor()
    await until(async () => existsSync(join(project, 'made-by-a.txt')), 'the agent to write its file')
    writeFileSync(join(project, 'notes.md'), 'my notes, edited during the turn\n')
    await messages('assistant').last().getByText('a slow wrap-up').waitFor()
    await turnsRecorded(page)

    fake.script({ kind: 'text', text: 'retaken' })
    const user = messages('user').last()
    await user.hover()
    await user.getByTestId('retake').click()
    const sheet = page.getByTestId('restore-sheet')
    const conflicts = sheet.getByTestId('restore-conflicts')
    await waitForText(conflicts, 'notes.md')
    await waitForText(conflicts, 'changed outside the agent')
    expect(await conflicts.getByTestId('conflict-choice').first().inputValue()).toBe('keep')
    await sheet.getByTestId('restore-confirm').click()
    await messages('assistant').last().getByText('retaken').waitFor()

    expect(existsSync(join(project, 'made-by-a.txt'))).toBe(false)
    expect(readFileSync(join(project, 'notes.md'), 'utf8')).toBe('my notes, edited during the turn\n')
  })
})
