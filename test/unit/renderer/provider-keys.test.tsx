/**
 * The providers dialog with each kind of auth method opencode reports: API key (with and without
 * prompts), OAuth "code" (paste a code), OAuth "auto" (the server waits; a device code shown with
 * a copy button), and the failures. The fake stands at the SDK's HTTP edge (global fetch), so the
 * real client, route check and unwrap run; the answers' shapes are opencode 1.18.33's, as
 * measured against the real server (test/integration/provider-auth.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { setBridge } from '../../../src/bridge'
import { ProviderKeysDialog } from '../../../src/features/models/ProviderKeysDialog'
import { useProviderKeysStore } from '../../../src/features/models/provider-keys-store'
import type { RetakeBridge } from '../../../shared/ipc-contract'

const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } })
const failure = (status: number, body: unknown) => json(body, status)

const METHODS = {
  openai: [
    { type: 'oauth', label: 'ChatGPT Pro/Plus (browser)' },
    { type: 'oauth', label: 'ChatGPT Pro/Plus (headless)' },
    { type: 'api', label: 'Manually enter API Key' },
  ],
  'github-copilot': [
    {
      type: 'oauth',
      label: 'Login with GitHub Copilot',
      prompts: [
        {
          type: 'select',
          key: 'deploymentType',
          message: 'Select GitHub deployment type',
          options: [
            { label: 'GitHub.com', value: 'github.com', hint: 'Public' },
            { label: 'GitHub Enterprise', value: 'enterprise' },
          ],
        },
        { type: 'text', key: 'enterpriseUrl', message: 'Enter your GitHub Enterprise URL or domain', when: { key: 'deploymentType', op: 'eq', value: 'enterprise' } },
      ],
    },
  ],
  cloudflare: [{ type: 'api', label: 'API key', prompts: [{ type: 'text', key: 'accountId', message: 'Enter your Cloudflare Account ID' }] }],
}
const PROVIDERS = ['openai', 'github-copilot', 'cloudflare', 'plain'].map((id) => ({ id, name: id === 'plain' ? 'Plain' : id, source: 'custom', env: [], options: {}, models: {} }))

type Handler = (body: Record<string, unknown>, req: Request) => Response | Promise<Response>

function fakeServer(routes: Record<string, Handler> = {}) {
  const calls: { route: string; body: Record<string, unknown>; signal: AbortSignal }[] = []
  const all: Record<string, Handler> = {
    'GET /provider': () => json({ all: PROVIDERS, default: {}, connected: [] }),
    'GET /provider/auth': () => json(METHODS),
    'PUT /auth/cloudflare': () => json(true),
    'PUT /auth/openai': () => json(true),
    ...routes,
  }
  vi.stubGlobal(
    'fetch',
    vi.fn(async (req: Request) => {
      const route = `${req.method} ${new URL(req.url).pathname.replace(/^\/opencode/, '')}`
      const text = req.method === 'GET' ? '' : await req.clone().text()
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
      calls.push({ route, body, signal: req.signal })
      const handler = all[route]
      return handler ? handler(body, req) : new Response('not found', { status: 404 })
    }),
  )
  return { calls, bodies: (route: string) => calls.filter((c) => c.route === route).map((c) => c.body) }
}

function renderDialog() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
        <ProviderKeysDialog onClose={() => {}} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
}

async function choose(providerID: string) {
  await waitFor(() => expect(screen.getByRole('option', { name: providerID === 'plain' ? 'Plain' : providerID })).toBeInTheDocument())
  await userEvent.selectOptions(screen.getByTestId('key-provider'), providerID)
}

const methodLabels = () => screen.queryAllByTestId('auth-method').map((r) => r.closest('label')!.textContent)

afterEach(() => {
  vi.unstubAllGlobals()
  setBridge(null)
  useProviderKeysStore.setState({ pendingApply: false })
})

describe('ProviderKeysDialog: how each provider connects', () => {
  it('lists the methods the server reports, in its order; a provider it does not list takes an API key', async () => {
    fakeServer()
    renderDialog()
    await choose('openai')
    expect(methodLabels()).toEqual(['ChatGPT Pro/Plus (browser)', 'ChatGPT Pro/Plus (headless)', 'Manually enter API Key'])
    expect(screen.getByTestId('sign-in-start')).toHaveTextContent('ChatGPT Pro/Plus (browser)')
    expect(screen.queryByTestId('key-input')).toBeNull()

    await userEvent.click(screen.getAllByTestId('auth-method')[2]!)
    await userEvent.type(screen.getByTestId('key-input'), 'sk-1')
    await userEvent.click(screen.getByTestId('key-save'))
    await screen.findByTestId('keys-saved')

    await choose('plain')
    expect(methodLabels()).toEqual([])
    expect(screen.getByTestId('key-input')).toBeInTheDocument()
    expect(screen.queryByTestId('sign-in')).toBeNull()
  })

  it('an API-key method with prompts sends their answers as metadata, and waits until they are given', async () => {
    const server = fakeServer()
    renderDialog()
    await choose('cloudflare')
    await userEvent.type(screen.getByTestId('key-input'), 'cf-token')
    expect(screen.getByTestId('key-save')).toBeDisabled()
    await userEvent.type(screen.getByTestId('auth-prompt-accountId'), ' acc123 ')
    await userEvent.click(screen.getByTestId('key-save'))
    await screen.findByTestId('keys-saved')
    expect(server.bodies('PUT /auth/cloudflare')).toEqual([{ type: 'api', key: 'cf-token', metadata: { accountId: 'acc123' } }])
    expect(useProviderKeysStore.getState().pendingApply).toBe(true)
  })
})

describe('ProviderKeysDialog: signing in', () => {
  it('"code": shows the whole address, opens it in a new tab, keeps a rejected code, then signs in and applies', async () => {
    const url = 'https://auth.example.com/authorize?client_id=x&state=s'
    let accept = false
    const server = fakeServer({
      'POST /provider/openai/oauth/authorize': () => json({ url, method: 'code', instructions: 'Paste the code from the page' }),
      'POST /provider/openai/oauth/callback': () => (accept ? json(true) : failure(400, { name: 'ProviderAuthOauthCallbackFailed', data: { providerID: 'openai' } })),
    })
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    renderDialog()
    await choose('openai')
    await userEvent.click(screen.getAllByTestId('auth-method')[1]!)
    await userEvent.click(screen.getByTestId('sign-in-start'))
    expect(await screen.findByTestId('sign-in-url')).toHaveTextContent(url)
    expect(server.bodies('POST /provider/openai/oauth/authorize')).toEqual([{ method: 1 }])
    await userEvent.click(screen.getByTestId('sign-in-open'))
    expect(open).toHaveBeenCalledWith(url, '_blank', 'noopener,noreferrer')

    await userEvent.type(screen.getByTestId('sign-in-code'), 'wrong-code')
    await userEvent.click(screen.getByTestId('sign-in-finish'))
    expect(await screen.findByTestId('sign-in-error')).toHaveTextContent('Signing in to openai did not finish: the provider did not accept the sign-in')
    expect(screen.getByTestId('sign-in-code')).toHaveValue('wrong-code')
    expect(useProviderKeysStore.getState().pendingApply).toBe(false)

    accept = true
    await userEvent.clear(screen.getByTestId('sign-in-code'))
    await userEvent.type(screen.getByTestId('sign-in-code'), 'good-code')
    await userEvent.click(screen.getByTestId('sign-in-finish'))
    expect(await screen.findByTestId('sign-in-done')).toHaveTextContent('Signed in to openai')
    expect(server.bodies('POST /provider/openai/oauth/callback')).toEqual([
      { method: 1, code: 'wrong-code' },
      { method: 1, code: 'good-code' },
    ])
    // The same path as a saved key: the instance reload that makes opencode use it is now due.
    expect(useProviderKeysStore.getState().pendingApply).toBe(true)
  })

  it('"auto" with a device code: prompts sent as inputs, the code shown and copied, waits for the server', async () => {
    let answer!: (r: Response) => void
    const server = fakeServer({
      'POST /provider/github-copilot/oauth/authorize': () => json({ url: 'https://github.example.com/login/device', method: 'auto', instructions: 'Enter code: AB12-CD34' }),
      'POST /provider/github-copilot/oauth/callback': () => new Promise<Response>((r) => (answer = r)),
    })
    renderDialog()
    await choose('github-copilot')
    expect(methodLabels()).toEqual([])
    expect(screen.queryByTestId('auth-prompt-enterpriseUrl')).toBeNull()
    await userEvent.selectOptions(screen.getByTestId('auth-prompt-deploymentType'), 'enterprise')
    await userEvent.click(screen.getByTestId('sign-in-start'))
    expect(screen.getByTestId('sign-in-error')).toHaveTextContent('Fill in: Enter your GitHub Enterprise URL or domain')
    expect(server.bodies('POST /provider/github-copilot/oauth/authorize')).toEqual([])
    await userEvent.type(screen.getByTestId('auth-prompt-enterpriseUrl'), 'git.corp.example')
    await userEvent.click(screen.getByTestId('sign-in-start'))

    expect(await screen.findByTestId('device-code')).toHaveTextContent('AB12-CD34')
    expect(server.bodies('POST /provider/github-copilot/oauth/authorize')).toEqual([{ method: 0, inputs: { deploymentType: 'enterprise', enterpriseUrl: 'git.corp.example' } }])
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await userEvent.click(screen.getByTestId('device-code-copy'))
    expect(writeText).toHaveBeenCalledWith('AB12-CD34')
    expect(screen.getByTestId('device-code-copy')).toHaveTextContent('Copied')
    expect(screen.getByTestId('sign-in-waiting')).toBeInTheDocument()
    await waitFor(() => expect(server.bodies('POST /provider/github-copilot/oauth/callback')).toEqual([{ method: 0 }]))

    answer(json(true))
    expect(await screen.findByTestId('sign-in-done')).toHaveTextContent('Signed in to github-copilot')
    expect(useProviderKeysStore.getState().pendingApply).toBe(true)
  })

  it('an authorize that fails says so in clear words, and the dialog still works (another method, a key)', async () => {
    const server = fakeServer({
      'POST /provider/openai/oauth/authorize': () => failure(500, { name: 'UnknownError', data: { message: 'Unexpected server error. Check server logs for details.' } }),
    })
    renderDialog()
    await choose('openai')
    await userEvent.click(screen.getByTestId('sign-in-start'))
    const error = await screen.findByTestId('sign-in-error')
    expect(error).toHaveTextContent('Signing in to openai could not start: the opencode server failed (HTTP 500')
    expect(error).toHaveTextContent('a missing internet connection is the likely cause')
    expect(screen.getByTestId('sign-in-start')).toBeEnabled()

    await userEvent.click(screen.getAllByTestId('auth-method')[2]!)
    await userEvent.type(screen.getByTestId('key-input'), 'sk-fallback')
    await userEvent.click(screen.getByTestId('key-save'))
    await screen.findByTestId('keys-saved')
    expect(server.bodies('PUT /auth/openai')).toEqual([{ type: 'api', key: 'sk-fallback' }])
  })

  it('an "auto" callback that fails offers to start again; Cancel stops waiting', async () => {
    let calls = 0
    const server = fakeServer({
      'POST /provider/openai/oauth/authorize': () => json({ url: 'https://auth.example.com/a', method: 'auto', instructions: 'Complete authorization in your browser.' }),
      'POST /provider/openai/oauth/callback': (_b, req) =>
        ++calls === 1
          ? failure(500, { name: 'UnknownError', data: { message: 'Unexpected server error.' } })
          : new Promise<Response>((_, reject) => req.signal.addEventListener('abort', () => reject(req.signal.reason))),
    })
    renderDialog()
    await choose('openai')
    await userEvent.click(screen.getByTestId('sign-in-start'))
    expect(await screen.findByTestId('sign-in-error')).toHaveTextContent('Signing in to openai did not finish: the opencode server failed (HTTP 500')
    await userEvent.click(screen.getByTestId('sign-in-start'))
    await screen.findByTestId('sign-in-waiting')
    await waitFor(() => expect(server.calls.filter((c) => c.route.endsWith('/callback'))).toHaveLength(2))
    await userEvent.click(screen.getByTestId('sign-in-cancel'))
    expect(server.calls.filter((c) => c.route.endsWith('/callback'))[1]!.signal.aborted).toBe(true)
    expect(screen.queryByTestId('sign-in-error')).toBeNull()
    expect(screen.getByTestId('sign-in-start')).toHaveTextContent('Sign in: ChatGPT Pro/Plus (browser)')
  })

  it('an answer without an address is an error, not an empty link', async () => {
    fakeServer({ 'POST /provider/openai/oauth/authorize': () => new Response(null, { status: 200 }) })
    renderDialog()
    await choose('openai')
    await userEvent.click(screen.getByTestId('sign-in-start'))
    expect(await screen.findByTestId('sign-in-error')).toHaveTextContent('could not start: The opencode server gave no sign-in address')
    expect(screen.queryByTestId('sign-in-url')).toBeNull()
  })

  it('desktop: the address goes to the host (shell.openExternal); a refusal is shown', async () => {
    fakeServer({ 'POST /provider/openai/oauth/authorize': () => json({ url: 'https://auth.example.com/a', method: 'code', instructions: '' }) })
    const invoked: unknown[] = []
    setBridge({ invoke: async (channel: string, input: unknown) => (invoked.push([channel, input]), false), on: () => () => {} } as unknown as RetakeBridge, true)
    renderDialog()
    await choose('openai')
    await userEvent.click(screen.getAllByTestId('auth-method')[1]!)
    await userEvent.click(screen.getByTestId('sign-in-start'))
    await userEvent.click(await screen.findByTestId('sign-in-open'))
    expect(await screen.findByTestId('sign-in-error')).toHaveTextContent('The system browser could not be opened')
    expect(invoked).toEqual([['shell.openExternal', { url: 'https://auth.example.com/a' }]])
    expect(within(screen.getByTestId('sign-in')).getByTestId('sign-in-url')).toHaveTextContent('https://auth.example.com/a')
  })
})

describe('ProviderKeysDialog: finding a provider', () => {
  const many = ['zhipu', 'openrouter', 'anthropic', 'alibaba', 'google', 'openai', 'deepseek'].map((id) => ({
    id,
    name: id === 'google' ? 'Google' : id,
    source: 'custom',
    env: [],
    options: {},
    models: {},
  }))

  it('lists the popular providers first, then the others by name, and a search narrows the list', async () => {
    fakeServer({ 'GET /provider': () => json({ all: many, default: {}, connected: [] }) })
    renderDialog()
    const list = screen.getByRole('combobox', { name: 'Provider' })
    await waitFor(() => expect(within(list).getByRole('option', { name: 'anthropic' })).toBeInTheDocument())
    const names = () =>
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent)
    expect(names()).toEqual(['Choose a provider', 'anthropic', 'openai', 'Google', 'openrouter', 'deepseek', 'alibaba', 'zhipu', 'Custom provider (OpenAI-compatible URL)'])
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search providers' }), 'OPEN')
    expect(names()).toEqual(['Choose a provider', 'openai', 'openrouter', 'Custom provider (OpenAI-compatible URL)'])
    // Enter takes the first provider the search leaves.
    await userEvent.keyboard('{Enter}')
    expect(list).toHaveValue('openai')
  })

  it('a provider of one’s own: checks the form and writes the OpenAI-compatible config entry to paste, nothing to any file', async () => {
    const server = fakeServer()
    renderDialog()
    await waitFor(() => expect(screen.getByRole('option', { name: 'openai' })).toBeInTheDocument())
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Provider' }), screen.getByRole('option', { name: 'Custom provider (OpenAI-compatible URL)' }))
    const form = screen.getByRole('form', { name: 'Custom provider' })
    await userEvent.type(within(form).getByRole('textbox', { name: 'Name' }), 'My Server')
    await userEvent.type(within(form).getByRole('textbox', { name: 'URL' }), 'http://127.0.0.1:8080/v1/')
    await userEvent.type(within(form).getByRole('textbox', { name: 'Models' }), 'llama-3.1-8b, qwen2.5')
    await userEvent.click(within(form).getByRole('button', { name: 'Make the config entry' }))
    expect(within(form).getByRole('alert')).toHaveTextContent('Give the provider a short name')

    await userEvent.clear(within(form).getByRole('textbox', { name: 'Name' }))
    await userEvent.type(within(form).getByRole('textbox', { name: 'Name' }), 'my-server')
    await userEvent.click(within(form).getByRole('button', { name: 'Make the config entry' }))
    expect(within(form).getByRole('status')).toHaveTextContent('put this in opencode.json in the project folder')
    expect(JSON.parse(within(form).getByLabelText('Config entry', { selector: 'pre' }).textContent!)).toEqual({
      provider: {
        'my-server': {
          name: 'my-server',
          npm: '@ai-sdk/openai-compatible',
          options: { baseURL: 'http://127.0.0.1:8080/v1' },
          models: { 'llama-3.1-8b': { name: 'llama-3.1-8b' }, 'qwen2.5': { name: 'qwen2.5' } },
        },
      },
    })
    // opencode 1.18's config PATCH writes a config.json it never reads back: not used.
    expect(server.calls.filter((c) => !c.route.startsWith('GET'))).toEqual([])
  })
})
