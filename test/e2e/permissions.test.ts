/**
 * A user whose opencode config says "ask" before shell commands: the turn waits, the question shows
 * above the composer, and the answer decides whether the command runs.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { closeApp, startApp, waitForCount, waitForText, type AppUnderTest } from './harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

async function askToRun(command: string) {
  app = await startApp({ config: { permission: { bash: 'ask' } } })
  await app.page.getByTestId('composer').fill(`BASH ${command}`)
  await app.page.getByTestId('composer').press('Enter')
  const prompt = app.page.getByTestId('permission-prompt')
  await waitForText(prompt, 'Run a command')
  return prompt
}

describe('permission prompts', () => {
  it('Allow once lets the command run and the turn finish', async () => {
    const prompt = await askToRun('echo allowed > asked.txt')
    await waitForText(prompt, 'echo allowed')
    expect(existsSync(join(app!.project, 'asked.txt'))).toBe(false)
    await prompt.getByTestId('permission-once').click()
    await app!.page.locator('[data-testid="message"][data-role="assistant"]').last().getByText(/done/).waitFor()
    await waitForCount(app!.page.getByTestId('permission-prompt'), 0)
    expect(existsSync(join(app!.project, 'asked.txt'))).toBe(true)
  })

  it('Deny keeps the command from running', async () => {
    const prompt = await askToRun('echo denied > denied.txt')
    await prompt.getByTestId('permission-reject').click()
    await waitForCount(app!.page.getByTestId('permission-prompt'), 0)
    await app!.page.locator('[data-testid="status-line"][data-kind="idle"]').waitFor()
    expect(existsSync(join(app!.project, 'denied.txt'))).toBe(false)
  })
})

describe('question prompts', () => {
  it('the agent’s question is answered in the app and the answer reaches the model', async () => {
    app = await startApp()
    const { page, fake } = app
    fake.script({
      kind: 'tool',
      calls: [
        {
          name: 'question',
          args: {
            questions: [
              {
                question: 'Which database should I use?',
                header: 'Database',
                options: [
                  { label: 'SQLite', description: 'a file' },
                  { label: 'Postgres', description: 'a server' },
                ],
              },
            ],
          },
        },
      ],
    })
    await page.getByTestId('composer').fill('set up storage')
    await page.getByTestId('composer').press('Enter')
    const prompt = page.getByTestId('question-prompt')
    await waitForText(prompt, 'Which database should I use?')
    await prompt.getByLabel('Postgres').check()
    await prompt.getByTestId('question-answer').click()
    await waitForCount(page.getByTestId('question-prompt'), 0)
    const followUp = await fake.waitForRequest((r) => r.kind === 'chat' && JSON.stringify(r.body.messages).includes('Postgres') && r.seq > 1, 20_000)
    expect(JSON.stringify(followUp.body.messages)).toContain('Postgres')
  })
})
