/**
 * ↺ in the browser: the user story "a turn failed, switch model, retake the failed turn", and the
 * attempt switcher that keeps the earlier answer readable.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type AppUnderTest, closeApp, startApp, turnsRecorded, until, waitForCount, waitForText } from './harness'
import { pickModel, currentModel, chooseInPalette, withGoodModels } from './pick-model'

let app: AppUnderTest

beforeEach(async () => {
  app = await startApp({ git: true, config: withGoodModels })
})
afterEach(async (ctx) => closeApp(app, ctx))

const messages = (role: 'user' | 'assistant') => app.page.locator(`[data-testid="message"][data-role="${role}"]`)

async function send(text: string) {
  await app.page.getByTestId('composer').fill(text)
  await app.page.getByTestId('composer').press('Enter')
}

describe('↺ retake in browser mode', () => {
  it('switch model, then retake the failed turn: same bubble, fresh answer from the new model', async () => {
    const { page, fake } = app
    fake.failModel('echo', 400)
    await send('explain the failure')
    await page.getByTestId('error-block').waitFor()
    const userBubble = messages('user').first()
    const userID = await userBubble.getAttribute('data-message-id')

    await pickModel(page, 'fake/echo-2')
    // The ↺ says which model it will use: the one selected now.
    const retake = userBubble.getByTestId('retake')
    await userBubble.hover()
    expect(await retake.getAttribute('title')).toMatch(/Echo 2|echo-2/)
    await retake.click()

    await messages('assistant').last().getByText('echo: explain the failure').waitFor()
    await waitForCount(page.getByTestId('error-block'), 0)
    await waitForCount(messages('user'), 1)
    expect(await messages('user').first().getAttribute('data-message-id')).toBe(userID)
    await waitForText(messages('user').first(), 'explain the failure')
    const asked = fake.chatRequests().map((r) => r.model)
    expect(asked).toEqual(['echo', 'echo-2'])
    expect(fake.chatRequests('echo-2')[0].lastUserText()).toBe('explain the failure')
  })

  it('the attempt switcher shows the earlier answer and its model next to the new one', async () => {
    const { page } = app
    await send('tell me something')
    await messages('assistant').last().getByText('echo: tell me something').waitFor()
    await pickModel(page, 'fake/echo-2')
    const user = messages('user').first()
    await user.hover()
    await user.getByTestId('retake').click()
    await messages('assistant').last().getByText('echo-2').waitFor()

    const switcher = page.getByTestId('attempt-switcher')
    await waitForText(switcher.getByTestId('attempt-label'), 'attempt 2 of 2')
    await switcher.getByTestId('attempt-prev').click()
    await waitForText(switcher.getByTestId('attempt-label'), 'attempt 1 of 2')
    const panel = switcher.getByTestId('attempt-panel')
    await waitForText(panel, 'echo: tell me something')
    await waitForText(panel, 'fake/echo')
    await switcher.getByTestId('attempt-next').click()
    await waitForCount(switcher.getByTestId('attempt-panel'), 0)
  })

  it('retaking an earlier turn asks first and says how many later turns go', async () => {
    const { page, fake } = app
    await send('turn one')
    await messages('assistant').last().getByText('echo: turn one').waitFor()
    await send('turn two')
    await messages('assistant').last().getByText('echo: turn two').waitFor()
    const first = messages('user').first()
    await first.hover()
    await first.getByTestId('retake').click()
    const confirm = page.getByTestId('retake-confirm')
    await waitForText(confirm, '1 later turn')
    await confirm.getByTestId('retake-confirm-yes').click()
    await waitForCount(messages('user'), 1)
    await messages('assistant').last().getByText('echo: turn one').waitFor()
    expect(fake.chatRequests().at(-1)!.lastUserText()).toBe('turn one')
  })

  it('R on a focused message opens the retake sheet, then retakes its turn with the model chosen now', async () => {
    const { page, fake } = app
    await send('keyboard please')
    await messages('assistant').last().getByText('echo: keyboard please').waitFor()
    await pickModel(page, 'fake/echo-2')
    await messages('assistant').last().focus()
    await page.keyboard.press('r')
    // R never acts silently: the retake sheet asks first, even for a turn that changed no file.
    const sheet = page.getByTestId('restore-sheet')
    await waitForText(sheet, 'Retake with Echo 2')
    expect(fake.chatRequests()).toHaveLength(1)
    await sheet.getByTestId('restore-confirm').click()
    // The new assistant bubble shows its model before the provider is asked: wait for the request
    // itself (and its answer), not for the bubble.
    await until(() => fake.chatRequests('echo-2').length === 1, 'the retake to reach the fake LLM')
    await messages('assistant').last().locator('.message-head', { hasText: 'echo-2' }).waitFor()
    await messages('assistant').last().getByText('echo: keyboard please').waitFor()
    await waitForCount(messages('user'), 1)
    expect(fake.chatRequests().map((r) => r.model)).toEqual(['echo', 'echo-2'])
  })

  it('Retake with… picks another model in one step and makes it the session’s model', async () => {
    const { page, fake } = app
    await send('answer me twice')
    await messages('assistant').last().getByText('echo: answer me twice').waitFor()
    // The turn over first: rows still moving (the answer's end, the timeline following it) can
    // take the click away from the menu's button on a loaded machine.
    await turnsRecorded(page)
    const user = messages('user').first()
    await user.hover()
    await user.getByTestId('retake-with').click()
    await chooseInPalette(page, page.getByTestId('retake-menu'), 'echo 2', 'fake/echo-2')
    await messages('assistant').last().locator('.message-head', { hasText: 'echo-2' }).waitFor()
    await messages('assistant').last().getByText('echo: answer me twice').waitFor()
    expect(fake.chatRequests().map((r) => r.model)).toEqual(['echo', 'echo-2'])
    expect(await currentModel(page)).toBe('fake/echo-2')
  })

  it('Retake with… "good c" + Enter retakes with Good C, not with Good A in use', async () => {
    const { page, fake } = app
    await pickModel(page, 'good/good-a')
    await send('pick me')
    await messages('assistant').last().getByText('echo: pick me').waitFor()
    await turnsRecorded(page)
    const user = messages('user').first()
    await user.hover()
    await user.getByTestId('retake-with').click()
    const menu = page.getByTestId('retake-menu')
    // Typed as a user types, then Enter as soon as Good C is listed: the highlight must already be on it.
    await menu.getByTestId('model-search').pressSequentially('good c')
    await menu.locator('[role="option"][data-model="good/good-c"]').waitFor()
    await page.keyboard.press('Enter')
    await until(() => fake.chatRequests().length === 2, 'the retake to reach the fake LLM')
    expect(fake.chatRequests().map((r) => r.model)).toEqual(['good-a', 'good-c'])
    expect(fake.chatRequests('good-c')[0]!.lastUserText()).toBe('pick me')
  })

  it('Retake with… then Cancel leaves the session’s model: the next prompt goes to the model in use', async () => {
    const { page, fake } = app
    await send('turn one')
    await messages('assistant').last().getByText('echo: turn one').waitFor()
    await send('turn two')
    await messages('assistant').last().getByText('echo: turn two').waitFor()
    await turnsRecorded(page)
    const first = messages('user').first()
    await first.hover()
    await first.getByTestId('retake-with').click()
    await chooseInPalette(page, page.getByTestId('retake-menu'), 'echo 2', 'fake/echo-2')
    // An earlier turn asks first; the user thinks better of it.
    const confirm = page.getByTestId('retake-confirm')
    await waitForText(confirm, '1 later turn')
    expect(await currentModel(page)).toBe('fake/echo')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await waitForCount(confirm, 0)
    expect(await currentModel(page)).toBe('fake/echo')

    await send('after cancel')
    await messages('assistant').last().getByText('echo: after cancel').waitFor()
    expect(fake.chatRequests().map((r) => r.model)).toEqual(['echo', 'echo', 'echo'])
  })

  it('a retake with a model the server does not know keeps the message and offers Send again, also after a reload', async () => {
    const { page, fake } = app
    await send('do not lose me')
    await messages('assistant').last().getByText('echo: do not lose me').waitFor()
    // The chosen model no longer exists on the server (e.g. removed from its config).
    const sessionID = await page.locator('[data-testid="session-item"][aria-current="true"]').getAttribute('data-session-id')
    await page.evaluate(
      ([key]) => {
        const data = JSON.parse(localStorage.getItem('retake.models') ?? '{"state":{"models":{},"agents":{}},"version":0}')
        data.state.models[key!] = { providerID: 'fake', modelID: 'nope' }
        localStorage.setItem('retake.models', JSON.stringify(data))
      },
      [`${app.project}\n${sessionID}`],
    )
    await page.reload()
    await page.locator('[data-app-state="ready"]').waitFor()
    const user = messages('user').first()
    await user.hover()
    await user.getByTestId('retake').click()
    const notice = page.getByTestId('failed-retake')
    await waitForText(notice, 'did not go through')
    await waitForText(messages('user').first(), 'do not lose me')

    // The offer survives a reload: it lives in Retake's data dir, not in the page.
    await page.reload()
    await page.locator('[data-app-state="ready"]').waitFor()
    await page.getByTestId('failed-retake').waitFor()
    await pickModel(page, 'fake/echo-2')
    await page.getByTestId('send-again').click()
    await waitForCount(page.getByTestId('failed-retake'), 0)
    await messages('assistant').last().locator('.message-head', { hasText: 'echo-2' }).waitFor()
    await messages('assistant').last().getByText('echo: do not lose me').waitFor()
    await waitForCount(messages('user'), 1)
    expect(fake.chatRequests().map((r) => r.model)).toEqual(['echo', 'echo-2'])
  })
})
