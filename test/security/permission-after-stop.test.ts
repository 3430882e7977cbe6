/**
 * Stop means stop: a turn stopped (Esc) while the agent waits for a permission must not run the
 * tool later. In Chromium against the real opencode server, with a config that asks before edits
 * and commands: after Esc the card says the turn was stopped and cannot be answered, an answer sent
 * by hand (a stale tab, a script in the page) is refused, and the file is never written.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { closeApp, startApp, until, waitForText, type AppUnderTest } from '../e2e/harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

type Pending = { id: string; sessionID: string }

/** A GET through the app's own proxy, from the page (as the renderer's own requests go). */
async function fromPage(path: string, init?: { method: string; body: unknown }): Promise<{ status: number; text: string }> {
  return app!.page.evaluate(
    async ([p, d, i]) => {
      const sep = p.includes('?') ? '&' : '?'
      const r = await fetch(
        `/opencode${p}${sep}directory=${encodeURIComponent(d)}`,
        i ? { method: i.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(i.body) } : undefined,
      )
      return { status: r.status, text: await r.text() }
    },
    [path, app!.project, init] as const,
  )
}

describe('a permission pending when the turn is stopped', () => {
  it('Esc denies it: the card is disabled and says so, a late "allow" is refused, the file is never written', async () => {
    app = await startApp({ config: { permission: { edit: 'ask', bash: 'ask' } } })
    const { page, project } = app
    await page.getByTestId('composer').fill('WRITE stopped.txt must never be written')
    await page.getByTestId('composer').press('Enter')
    const prompt = page.getByTestId('permission-prompt')
    await waitForText(prompt, 'stopped.txt')
    // In the user's words, not opencode's key ("edit").
    expect(await prompt.getByTestId('permission-action').textContent()).toBe('Write or change a file')
    const asked = JSON.parse((await fromPage('/permission')).text) as Pending[]
    expect(asked).toHaveLength(1)

    await page.keyboard.press('Escape')
    await waitForText(prompt, /turn was stopped/i)
    for (const id of ['permission-once', 'permission-always', 'permission-reject']) expect(await prompt.getByTestId(id).isDisabled()).toBe(true)
    // A click on the disabled button does nothing.
    await prompt.getByTestId('permission-once').click({ force: true })

    // The server no longer waits for an answer, and one sent anyway changes nothing.
    await until(async () => (JSON.parse((await fromPage('/permission')).text) as Pending[]).length === 0, 'no pending permission on the server')
    const late = await fromPage(`/permission/${asked[0]!.id}/reply`, { method: 'POST', body: { reply: 'once' } })
    expect(late.text).not.toBe('true')
    await page.locator('[data-testid="status-line"][data-kind="idle"]').waitFor()
    // Settled: the turn's tool call has ended (error or not), nothing left running on the server.
    await until(async () => {
      const msgs = JSON.parse((await fromPage(`/session/${asked[0]!.sessionID}/message`)).text) as { parts: { type: string; state?: { status: string } }[] }[]
      const tools = msgs.flatMap((m) => m.parts).filter((p) => p.type === 'tool')
      return tools.length > 0 && tools.every((t) => t.state?.status === 'completed' || t.state?.status === 'error')
    }, 'the tool call to end')
    expect(existsSync(join(project, 'stopped.txt'))).toBe(false)
    expect(await prompt.getByTestId('permission-once').isDisabled()).toBe(true)
  })

  it('two writes asked at once (parallel tool calls): Stop denies both, neither file is written', async () => {
    app = await startApp({ config: { permission: { edit: 'ask', bash: 'ask' } } })
    const { page, project, fake } = app
    fake.script({
      kind: 'tool',
      calls: [
        { name: 'write', args: { filePath: join(project, 'one.txt'), content: 'one\n' } },
        { name: 'write', args: { filePath: join(project, 'two.txt'), content: 'two\n' } },
      ],
    })
    await page.getByTestId('composer').fill('write two files')
    await page.getByTestId('composer').press('Enter')
    await until(async () => (JSON.parse((await fromPage('/permission')).text) as Pending[]).length === 2, 'both writes to ask')
    const asked = JSON.parse((await fromPage('/permission')).text) as Pending[]
    await waitForText(page.getByTestId('permission-prompt'), '1 more')

    await page.keyboard.press('Escape')
    await waitForText(page.getByTestId('permission-prompt'), /turn was stopped/i)
    await until(async () => (JSON.parse((await fromPage('/permission')).text) as Pending[]).length === 0, 'no pending permission on the server')
    for (const p of asked) expect((await fromPage(`/permission/${p.id}/reply`, { method: 'POST', body: { reply: 'once' } })).text).not.toBe('true')
    await page.locator('[data-testid="status-line"][data-kind="idle"]').waitFor()
    await until(async () => {
      const msgs = JSON.parse((await fromPage(`/session/${asked[0]!.sessionID}/message`)).text) as { parts: { type: string; state?: { status: string } }[] }[]
      const tools = msgs.flatMap((m) => m.parts).filter((p) => p.type === 'tool')
      return tools.length === 2 && tools.every((t) => t.state?.status === 'completed' || t.state?.status === 'error')
    }, 'both tool calls to end')
    expect(existsSync(join(project, 'one.txt'))).toBe(false)
    expect(existsSync(join(project, 'two.txt'))).toBe(false)
  })
})
