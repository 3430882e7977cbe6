/**
 * Provider sign-in against the real opencode server with its internal auth plugins (Poe, Copilot,
 * ChatGPT…). The providers' own sign-in servers are on the internet, which these tests never reach:
 * HTTPS_PROXY points at a closed loopback port (NO_PROXY keeps the fake LLM reachable), so every
 * outside call fails at once, the same with or without a network. What is checked: the methods the
 * dialog shows are the ones the server reports, an authorize that must reach the provider fails in
 * clear words, a browser sign-in goes all the way round (address opened in a new tab, the browser
 * sent back to opencode's callback listener) until the token exchange, whose failure is shown, and
 * the dialog stays usable after each failure. A second test completes a sign-in through a local
 * opencode plugin standing in for the provider's sign-in server (see SIGN_IN_PLUGIN).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { closeApp, startApp, until, waitForText, type AppUnderTest } from './harness'
import { pickModel } from './pick-model'

let app: AppUnderTest | undefined
let pluginDir: string | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
  if (pluginDir) rmSync(pluginDir, { recursive: true, force: true })
  pluginDir = undefined
})

/**
 * A provider sign-in that completes without the internet: an opencode plugin (loaded through
 * opencode's own `plugin` config, as any user plugin is) plays the provider's sign-in server. Its
 * "code" flow accepts any code but "wrong" and hands opencode that code as the provider's key,
 * so the fake LLM shows whether the next prompt carries what the sign-in stored.
 */
const SIGN_IN_PLUGIN = `
export const TestSignIn = async () => ({
  auth: {
    provider: 'keyed',
    methods: [
      {
        type: 'oauth',
        label: 'Sign in to Keyed',
        authorize: async () => ({
          url: 'https://keyed.invalid/authorize?client=retake-test',
          instructions: 'Sign in, then paste the code the page shows',
          method: 'code',
          callback: async (code) => (code === 'wrong' ? { type: 'failed' } : { type: 'success', key: 'signed-' + code }),
        }),
      },
      { type: 'api', label: 'API key' },
    ],
  },
})
`

const OFFLINE = { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1,localhost' }

describe('provider sign-in (real opencode server, no internet)', () => {
  it('shows the methods the server reports; failures are clear and leave the dialog usable', async () => {
    app = await startApp({
      defaultPlugins: true,
      env: { ...OFFLINE, https_proxy: OFFLINE.HTTPS_PROXY, http_proxy: OFFLINE.HTTP_PROXY, no_proxy: OFFLINE.NO_PROXY },
      // The plugins' providers must be listed to be chosen; the test's own config enables only the fakes.
      config: (base) => ({ ...base, enabled_providers: [...(base.enabled_providers ?? []), 'openai', 'github-copilot', 'poe'] }),
    })
    const { page, project } = app
    // What the server itself reports, asked through Retake's proxy (the same route the dialog uses).
    const reported = (await page.evaluate(async (dir) => {
      const r = await fetch(`/opencode/provider/auth?directory=${encodeURIComponent(dir)}`)
      return r.json()
    }, project)) as Record<string, { type: string; label: string }[]>
    expect(Object.keys(reported)).toEqual(expect.arrayContaining(['openai', 'github-copilot', 'poe']))

    await page.getByTestId('open-keys').click()
    const dialog = page.getByTestId('provider-keys')
    for (const id of ['openai', 'poe']) {
      await dialog.getByTestId('key-provider').selectOption(id)
      await expect.poll(() => dialog.getByTestId('auth-method').evaluateAll((els) => els.map((e) => e.closest('label')!.textContent))).toEqual(reported[id]!.map((m) => m.label))
    }
    // Copilot has one method (no choice to show) with a question first: which GitHub.
    await dialog.getByTestId('key-provider').selectOption('github-copilot')
    expect(await dialog.getByTestId('auth-method').count()).toBe(0)
    await waitForText(dialog.getByTestId('sign-in-start'), reported['github-copilot']![0]!.label)
    await dialog.getByTestId('auth-prompt-deploymentType').selectOption('github.com')

    // A device-code sign-in asks GitHub for the code first: offline, opencode answers 500.
    await dialog.getByTestId('sign-in-start').click()
    await waitForText(dialog.getByTestId('sign-in-error'), 'Signing in to GitHub Copilot could not start')
    expect(await dialog.getByTestId('sign-in-error').textContent()).toMatch(/internet connection is the likely cause/)
    expect(await dialog.getByTestId('sign-in-start').isEnabled()).toBe(true)

    // Poe's browser sign-in: opencode builds the address and listens for the browser's return.
    await dialog.getByTestId('key-provider').selectOption('poe')
    await dialog.getByTestId('sign-in-start').click()
    const address = await waitForText(dialog.getByTestId('sign-in-url'), 'https://poe.com/')
    await dialog.getByTestId('sign-in-waiting').waitFor()
    mkdirSync('test-results', { recursive: true })
    await page.screenshot({ path: 'test-results/guide-sign-in.png' })
    // A new tab asks for exactly that address (it cannot load here; the request is what counts).
    const [tab, request] = await Promise.all([
      page.context().waitForEvent('page'),
      page.context().waitForEvent('request', (r) => r.url().startsWith('https://poe.com/')),
      dialog.getByTestId('sign-in-open').click(),
    ])
    expect(request.url()).toBe(address)
    // Opened with no opener: the provider's page cannot reach back into Retake.
    expect(await tab.evaluate(() => window.opener)).toBeNull()
    await tab.close()

    // The provider sends the browser back to opencode's listener with a code; exchanging it needs
    // poe.com, so the callback Retake is waiting on fails, and says so.
    const back = new URL(new URL(address).searchParams.get('redirect_uri')!)
    back.searchParams.set('code', 'code-from-poe')
    const res = await fetch(back)
    expect(res.status).toBe(200)
    await waitForText(dialog.getByTestId('sign-in-error'), 'Signing in to Poe did not finish')
    expect(await dialog.getByTestId('sign-in-start').textContent()).toBe('Start again')

    // Still usable: the other method stores a key.
    await dialog.getByTestId('auth-method').nth(1).check()
    await dialog.getByTestId('key-input').fill('poe-key')
    await dialog.getByTestId('key-save').click()
    await waitForText(dialog.getByTestId('keys-saved'), 'Key saved for poe')
  })

  it('a completed sign-in is used by the next prompt with no restart; a refused code is said and kept', async () => {
    pluginDir = mkdtempSync(join(tmpdir(), 'retake-signin-plugin-'))
    const plugin = join(pluginDir, 'sign-in.js')
    writeFileSync(plugin, SIGN_IN_PLUGIN)
    app = await startApp({
      config: (base) => ({
        ...base,
        plugin: [pathToFileURL(plugin).href],
        enabled_providers: [...(base.enabled_providers ?? []), 'keyed'],
        provider: {
          ...base.provider,
          keyed: { name: 'Keyed', npm: '@ai-sdk/openai-compatible', options: { baseURL: base.provider!.fake!.options!.baseURL }, models: { kmodel: { name: 'Keyed model' } } },
        },
      }),
    })
    const { page, fake } = app
    await page.getByTestId('open-keys').click()
    const dialog = page.getByTestId('provider-keys')
    await dialog.getByTestId('key-provider').selectOption('keyed')
    await waitForText(dialog.getByTestId('sign-in-start'), 'Sign in to Keyed')
    await dialog.getByTestId('sign-in-start').click()
    await waitForText(dialog.getByTestId('sign-in-url'), 'https://keyed.invalid/authorize?client=retake-test')

    await dialog.getByTestId('sign-in-code').fill('wrong')
    await dialog.getByTestId('sign-in-finish').click()
    await waitForText(dialog.getByTestId('sign-in-error'), 'Signing in to Keyed did not finish: the provider did not accept the sign-in')
    expect(await dialog.getByTestId('sign-in-code').inputValue()).toBe('wrong')

    await dialog.getByTestId('sign-in-code').fill('abc123')
    await dialog.getByTestId('sign-in-finish').click()
    await waitForText(dialog.getByTestId('sign-in-done'), 'no restart needed')
    await page.keyboard.press('Escape')

    await pickModel(page, 'keyed/kmodel', 'kmodel')
    await page.getByTestId('composer').fill('hello after signing in')
    await page.getByTestId('composer').press('Enter')
    await until(() => fake.chatRequests('kmodel').length > 0, 'the prompt to reach the signed-in provider')
    expect(fake.chatRequests('kmodel')[0]!.headers.authorization).toBe('Bearer signed-abc123')
  })
})
