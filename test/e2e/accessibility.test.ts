/**
 * The automated accessibility check (axe-core, every rule, serious and critical only) on what a user
 * sees most: the chat with an answer, the restore sheet, Settings, Keys, the command palette and the
 * compare view. Each must have no serious violation, in the light theme and the dark one.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type AppUnderTest, closeApp, startApp, turnsRecorded, waitForCount } from './harness'
import { chooseInPalette } from './pick-model'
import { seriousViolations } from './axe'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

const messages = (role: 'user' | 'assistant') => app!.page.locator(`[data-testid="message"][data-role="${role}"]`)

/** The violations on the page as painted now (no fade half-way), labelled with where they were found. */
async function check(where: string): Promise<string[]> {
  const page = app!.page
  await page.waitForFunction(() => document.getAnimations().length === 0)
  return (await seriousViolations(page)).map((v) => `${where}: ${v}`)
}

describe('accessibility (axe-core)', () => {
  it('chat, restore sheet, Settings, Keys, command palette and compare: no serious violation, light and dark', async () => {
    app = await startApp({ files: { 'README.md': '# demo\n' } })
    const { page, fake } = app
    const found: string[] = []
    const composer = page.getByRole('textbox', { name: 'Message', exact: true })
    await composer.fill('WRITE notes.txt from the agent')
    await composer.press('Enter')
    await messages('assistant').last().getByText(/done/).waitFor()
    await turnsRecorded(page)

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.mouse.move(0, 0)
      found.push(...(await check(`${scheme} chat`)))

      await messages('assistant').last().focus()
      await page.keyboard.press('r')
      const sheet = page.getByRole('dialog', { name: 'Retake this turn' })
      await sheet.getByRole('button', { name: 'Retake', exact: true }).and(page.locator(':enabled')).waitFor()
      found.push(...(await check(`${scheme} restore sheet`)))
      await page.keyboard.press('Escape')
      await waitForCount(sheet, 0)

      await page.getByRole('button', { name: 'Settings', exact: true }).click()
      const settings = page.getByRole('dialog', { name: 'Settings', exact: true })
      await settings.getByRole('heading', { name: 'Excludes' }).waitFor()
      found.push(...(await check(`${scheme} Settings`)))
      await page.keyboard.press('Escape')
      await waitForCount(settings, 0)

      await page.getByRole('button', { name: 'Keys', exact: true }).click()
      const keys = page.getByRole('dialog', { name: 'Providers: keys and sign-in' })
      await keys.getByRole('combobox', { name: 'Provider' }).and(page.locator(':enabled')).waitFor()
      found.push(...(await check(`${scheme} Keys`)))
      await page.keyboard.press('Escape')
      await waitForCount(keys, 0)

      await composer.focus()
      await page.keyboard.press('Control+k')
      const palette = page.getByRole('dialog', { name: 'Command palette' })
      await palette.getByRole('option').first().waitFor()
      found.push(...(await check(`${scheme} command palette`)))
      await page.keyboard.press('Escape')
      await waitForCount(palette, 0)
    }

    // Compare: the turn retaken on two models side by side (files only as the conversation goes).
    fake.script({ kind: 'text', text: 'the second model’s answer', model: 'echo-2' })
    const user = messages('user').first()
    await user.hover()
    await user.getByRole('button', { name: 'Retake with another model' }).click()
    const menu = page.getByRole('dialog', { name: 'Retake with…' })
    await menu.getByTestId('compare-toggle').check()
    await chooseInPalette(page, menu, 'echo 2', 'fake/echo-2')
    await chooseInPalette(page, menu, 'text only', 'fake/echo-noimg')
    await menu.getByTestId('compare-run').click()
    const sheet = page.getByRole('dialog', { name: 'Retake this turn' })
    await sheet.getByRole('button', { name: 'Retake', exact: true }).and(page.locator(':enabled')).click()
    const compare = page.getByRole('dialog', { name: 'Compare the answers' })
    await waitForCount(compare.getByTestId('compare-column'), 2)
    await compare.getByText('the second model’s answer').waitFor()
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      found.push(...(await check(`${scheme} compare`)))
    }
    expect(found).toEqual([])
  })
})
