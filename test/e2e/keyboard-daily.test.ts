/**
 * Every daily task with the keyboard alone, in Chromium against the real opencode server: send,
 * stop, retake, choose files in the restore sheet, undo, switch attempt, compare, fork — and
 * Settings opened from the palette gives focus back. Only `page.keyboard` acts (no click, no
 * `.focus()`); controls are found by role and accessible name, and reached with Tab / Shift+Tab.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { type AppUnderTest, closeApp, composerOf, messagesOf, startApp, turnsRecorded, until, waitForCount, waitForText } from './harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

const messages = (role: 'user' | 'assistant') => messagesOf(app!.page, role)
const composer = () => composerOf(app!.page)
const hasFocus = (l: Locator) => l.evaluate((el) => el === document.activeElement).catch(() => false)

/** What has focus, for a failure message. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    return el ? `${el.tagName.toLowerCase()} “${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}”` : 'nothing'
  })

/** Presses Tab (or Shift+Tab) until `target` has focus: it must be reachable from where focus is. */
async function tabTo(page: Page, target: Locator, opts: { back?: boolean; max?: number } = {}): Promise<void> {
  await target.waitFor()
  for (let i = 0; i < (opts.max ?? 120); i++) {
    if (await hasFocus(target)) return
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab')
  }
  throw new Error(`could not reach ${target} with ${opts.back ? 'Shift+Tab' : 'Tab'} (focus on ${await focusedName(page)})`)
}

async function type(page: Page, text: string) {
  await tabTo(page, composer())
  await page.keyboard.type(text)
  await page.keyboard.press('Enter')
}

async function sendAndWait(page: Page, text: string, answer: string | RegExp) {
  await type(page, text)
  await messages('assistant').last().getByText(answer).first().waitFor()
  await turnsRecorded(page)
}

describe('a keyboard-only user', () => {
  it('sends, stops, retakes choosing the files, undoes the restore and switches attempt', async () => {
    app = await startApp({ git: true, files: { 'README.md': '# demo\n' } })
    const { page, project } = app

    // Send.
    await sendAndWait(page, 'WRITE notes.txt from the agent ; EDIT README.md demo DEMO', /done/)
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# DEMO\n')

    // Stop: the Stop button, reached with Tab from the composer.
    await type(page, 'SLOW a long answer')
    const stop = page.getByRole('button', { name: 'Stop', exact: true })
    await tabTo(page, stop)
    await page.keyboard.press('Enter')
    await waitForCount(stop, 0)
    expect(await hasFocus(composer()), 'focus stays in the composer once Stop is gone').toBe(true)
    expect(await messages('assistant').last().textContent()).not.toContain('w40')
    await turnsRecorded(page)

    // Retake the first turn: its ↺, reached with Shift+Tab from the composer, opens the sheet.
    app.fake.script({ kind: 'text', text: 'retaken without touching files' })
    await tabTo(page, composer())
    const first = messages('user').first()
    await tabTo(page, first.getByRole('button', { name: 'Retake with Echo', exact: true }), { back: true })
    await page.keyboard.press('Enter')
    const sheet = page.getByRole('dialog', { name: 'Retake this turn' })
    await waitForText(sheet.getByTestId('restore-remove'), 'notes.txt')
    // Choose the files: README.md stays as the turn left it, notes.txt goes.
    const readme = sheet.getByRole('combobox', { name: 'What to do with README.md' })
    await tabTo(page, readme)
    await page.keyboard.press('ArrowDown')
    await until(async () => (await readme.inputValue()) === 'keep', 'README.md to be kept')
    const retake = sheet.getByRole('button', { name: 'Retake', exact: true })
    await tabTo(page, retake)
    await page.keyboard.press('Enter')
    await waitForCount(sheet, 0)
    await messages('assistant').last().getByText('retaken without touching files').waitFor()
    await waitForCount(messages('user'), 1)
    expect(existsSync(join(project, 'notes.txt'))).toBe(false)
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# DEMO\n')

    // Undo the restore: the Undo bar's button.
    const undo = page.getByRole('button', { name: 'Undo restore' })
    await tabTo(page, undo, { back: true })
    await page.keyboard.press('Enter')
    await waitForText(page.getByTestId('restore-summary'), 'Restore undone')
    expect(existsSync(join(project, 'notes.txt'))).toBe(true)

    // Switch attempt: the earlier one, then continue from it.
    await turnsRecorded(page)
    await tabTo(page, composer())
    const earlier = page.getByRole('button', { name: 'Earlier attempt' })
    await tabTo(page, earlier, { back: true })
    await page.keyboard.press('Enter')
    const continueButton = page.getByRole('button', { name: 'Continue from this attempt' })
    await tabTo(page, continueButton)
    await page.keyboard.press('Enter')
    const switchSheet = page.getByRole('dialog', { name: 'Continue from this attempt' })
    await switchSheet.waitFor()
    await tabTo(page, switchSheet.getByRole('button', { name: 'Continue from this attempt' }).and(page.locator(':enabled')))
    await page.keyboard.press('Enter')
    await waitForText(page.getByTestId('continue-note'), 'Continued from the earlier attempt')
    await waitForCount(messages('user'), 2)
  })

  it('compares models and keeps one, then forks from a turn', async () => {
    app = await startApp({ git: true })
    const { page, fake, project } = app
    await sendAndWait(page, 'WRITE base.txt from the first answer', /done/)
    for (const [model, file] of [
      ['echo-2', 'two.txt'],
      ['echo-noimg', 'three.txt'],
    ] as const) {
      fake.script({ kind: 'tool', calls: [{ name: 'write', args: { filePath: join(project, file), content: `by ${model}\n` } }], model })
      fake.script({ kind: 'text', text: `${model} wrote ${file}`, model })
    }

    // Compare: Retake with… → Compare → two models → Run → the sheet → keep the first run.
    const first = messages('user').first()
    await tabTo(page, first.getByRole('button', { name: 'Retake with another model' }), { back: true })
    await page.keyboard.press('Enter')
    const menu = page.getByRole('dialog', { name: 'Retake with…' })
    await menu.waitFor()
    await tabTo(page, menu.getByRole('checkbox', { name: /Compare/ }), { back: true })
    await page.keyboard.press('Space')
    // cmdk names its box after the list it searches ("Retake with…").
    const search = menu.getByRole('combobox')
    await tabTo(page, search)
    for (const [words, n] of [
      ['echo 2', '1. Echo 2'],
      ['text only', '2. Echo (text only)'],
    ] as const) {
      await page.keyboard.press('ControlOrMeta+a')
      await page.keyboard.type(words)
      await page.keyboard.press('Enter')
      await waitForText(menu.getByTestId('compare-picked'), n)
    }
    await tabTo(page, menu.getByRole('button', { name: 'Run on 2' }))
    await page.keyboard.press('Enter')
    const sheet = page.getByRole('dialog', { name: 'Retake this turn' })
    await waitForText(sheet, 'base.txt')
    await tabTo(page, sheet.getByRole('button', { name: 'Retake', exact: true }).and(page.locator(':enabled')))
    await page.keyboard.press('Enter')
    const compare = page.getByRole('dialog', { name: 'Compare the answers' })
    await waitForCount(compare.getByTestId('compare-column'), 2)
    await waitForText(compare.getByTestId('compare-column').nth(1), 'echo-noimg wrote three.txt')
    await tabTo(page, compare.getByRole('region', { name: '1. Echo 2' }).getByRole('button', { name: 'Keep this one' }))
    await page.keyboard.press('Enter')
    await waitForText(page.getByTestId('continue-note'), 'Continued from the earlier attempt')
    await until(() => existsSync(join(project, 'two.txt')) && !existsSync(join(project, 'three.txt')), 'the kept run’s files')

    // Fork from the turn into a folder of its own.
    const folder = join(dirname(project), 'forked')
    await tabTo(page, composer())
    await tabTo(page, messages('user').first().getByRole('button', { name: 'Fork' }), { back: true })
    await page.keyboard.press('Enter')
    const panel = page.getByRole('dialog', { name: 'Fork from this turn' })
    const where = panel.getByRole('textbox', { name: 'Folder for the fork' })
    await tabTo(page, where)
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type(folder)
    await tabTo(page, panel.getByRole('button', { name: /^Fork/ }))
    await page.keyboard.press('Enter')
    await waitForText(page.getByTestId('project-head'), 'forked')
    await until(() => existsSync(join(folder, 'two.txt')), 'the fork’s files in its folder')
  })

  it('Settings opened from the palette gives focus back to the composer when closed', async () => {
    app = await startApp()
    const { page } = app
    await tabTo(page, composer())
    // Twice: the second time Settings' code is loaded already and opens in the palette's own commit.
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press('ControlOrMeta+k')
      const palette = page.getByRole('dialog', { name: 'Command palette' })
      await palette.waitFor()
      await page.keyboard.type('open settings')
      await page.keyboard.press('Enter')
      const settings = page.getByRole('dialog', { name: 'Settings' })
      await settings.waitFor()
      await page.keyboard.press('Escape')
      await waitForCount(settings, 0)
      await until(() => hasFocus(composer()), 'focus to be back on the composer')
    }
  })
})
