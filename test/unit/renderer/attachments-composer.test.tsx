import './cmdk-env'
/**
 * Composer attachments in the chat view (jsdom): chips added by the picker and removed before
 * sending, the parts a message becomes, limits that never touch the typed text, a failed send that
 * keeps the files, and the model-support flag with "Switch model".
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { ChatView } from '../../../src/features/chat/ChatView'
import { INLINE_LIMIT_BYTES, parseInlinedAttachment } from '../../../shared/attachments/inlined-attachment'
import { useAttachmentsStore } from '../../../src/features/attachments/attachments-store'
import { useDraftsStore } from '../../../src/features/chat/drafts-store'
import { useModelStore } from '../../../src/features/models/model-store'
import { localProviders, SID, session } from './fixtures'

const caps = (image: boolean, pdf: boolean) => ({ reasoning: false, toolcall: true, attachment: image || pdf, input: { text: true, image, pdf } })
const providers = localProviders({
  echo: { name: 'Echo', capabilities: caps(true, false) },
  reader: { name: 'Reader', capabilities: caps(true, true) },
  plain: { name: 'Plain', capabilities: caps(false, false) },
})

function renderChat(promptStatus = 204) {
  const prompts: { parts: { type: string; text?: string; mime?: string; filename?: string; url?: string }[]; model?: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const p = new URL(input.url).pathname.replace(/^\/opencode/, '')
      const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } })
      if (p === '/session') return json([session(SID, 1, { title: 'Chat' })])
      if (p === '/session/status') return json({})
      if (p === `/session/${SID}/message`) return json([])
      if (p === '/config/providers') return json(providers)
      if (p === '/config') return json({ model: 'local/echo' })
      if (p === '/agent') return json([{ name: 'build', mode: 'primary', permission: [], options: {} }])
      if (p === `/session/${SID}/prompt_async`) {
        prompts.push(await input.json())
        return promptStatus === 204 ? new Response(null, { status: 204 }) : json({ name: 'UnknownError', data: { message: 'boom' } }, promptStatus)
      }
      return new Response('nope', { status: 404 })
    }),
  )
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
        <ChatView sessionID={SID} onSelect={() => {}} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return prompts
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const PDF = new TextEncoder().encode('%PDF-1.4\n%\xff\n1 0 obj\n')
const file = (parts: BlobPart[], name: string, type = '') => new File(parts, name, { type })

async function attach(...files: File[]) {
  await userEvent.upload(screen.getByTestId('attach-input'), files)
}

afterEach(() => {
  vi.unstubAllGlobals()
  useAttachmentsStore.setState({ byKey: {}, notices: {} })
  useDraftsStore.setState({ drafts: {} })
  useModelStore.setState({ models: {}, agents: {} })
})

describe('composer attachments', () => {
  it('shows chips with name, size and type, removes one, and sends text + inlined text file + image file part', async () => {
    const prompts = renderChat()
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveAttribute('data-model', 'local/echo'))
    await attach(file(['a,b\r\n1,2\r\n'], 'data.csv', 'text/csv'), file([PNG], 'pixel.png', 'image/png'), file(['drop me'], 'gone.txt'))
    const chips = await screen.findAllByTestId('composer-chip')
    expect(chips.map((c) => c.textContent)).toEqual([
      expect.stringMatching(/data\.csv.*10 B.*csv/),
      expect.stringMatching(/pixel\.png.*12 B.*png/),
      expect.stringMatching(/gone\.txt.*7 B.*plain/),
    ])
    await userEvent.click(within(chips[2]!).getByTestId('remove-attachment'))
    expect(screen.getAllByTestId('composer-chip')).toHaveLength(2)

    await userEvent.type(screen.getByTestId('composer'), 'look{Enter}')
    await waitFor(() => expect(prompts).toHaveLength(1))
    const parts = prompts[0]!.parts
    expect(parts.map((p) => p.type)).toEqual(['text', 'text', 'file'])
    expect(parts[0]).toEqual({ type: 'text', text: 'look' })
    expect(parseInlinedAttachment(parts[1]!.text!)).toMatchObject({ name: 'data.csv', mime: 'text/csv', text: 'a,b\r\n1,2\r\n' })
    expect(parts[2]).toMatchObject({ type: 'file', mime: 'image/png', filename: 'pixel.png', url: expect.stringMatching(/^data:image\/png;base64,/) })
    // Sent: the composer is empty again.
    await waitFor(() => expect(screen.queryAllByTestId('composer-chip')).toHaveLength(0))
  })

  it('a message of attachments only can be sent', async () => {
    const prompts = renderChat()
    await attach(file(['# hi\n'], 'a.md'))
    await screen.findByTestId('composer-chip')
    await userEvent.click(screen.getByTestId('send'))
    await waitFor(() => expect(prompts).toHaveLength(1))
    expect(prompts[0]!.parts).toHaveLength(1)
    expect(parseInlinedAttachment(prompts[0]!.parts[0]!.text!)?.name).toBe('a.md')
  })

  it('a text file over the inline limit is refused with a message; the typed text and other chips stay', async () => {
    renderChat()
    await userEvent.type(await screen.findByTestId('composer'), 'keep this text')
    await attach(file(['ok'], 'small.txt'))
    await screen.findByTestId('composer-chip')
    await attach(file(['x'.repeat(INLINE_LIMIT_BYTES + 1)], 'huge.log'))
    expect(await screen.findByTestId('attachment-notice')).toHaveTextContent(/huge\.log.*limited to 1\.0 MB.*not added/)
    expect(screen.getByTestId('composer')).toHaveValue('keep this text')
    expect(screen.getAllByTestId('composer-chip')).toHaveLength(1)
  })

  it('a failed send keeps the attachments in the composer, like the draft', async () => {
    const prompts = renderChat(500)
    await attach(file(['body'], 'notes.md'))
    await screen.findByTestId('composer-chip')
    await userEvent.type(screen.getByTestId('composer'), 'try{Enter}')
    expect(await screen.findByTestId('composer-error')).toHaveTextContent('boom')
    expect(prompts).toHaveLength(1)
    await waitFor(() => expect(screen.getByTestId('composer')).toHaveValue('try'))
    expect(screen.getAllByTestId('composer-chip')).toHaveLength(1)
  })

  it('files dropped on the chat and pasted into the box are attached', async () => {
    renderChat()
    const chat = (await screen.findByTestId('composer')).closest('.chat')!
    const dropped = file(['dropped'], 'drop.txt')
    fireEvent.drop(chat, { dataTransfer: { files: [dropped], types: ['Files'] } })
    await waitFor(() => expect(screen.getAllByTestId('composer-chip')).toHaveLength(1))
    fireEvent.paste(screen.getByTestId('composer'), { clipboardData: { files: [file([PNG], 'image.png', 'image/png')], getData: () => '' } })
    await waitFor(() => expect(screen.getAllByTestId('composer-chip')).toHaveLength(2))
    expect(screen.getAllByTestId('composer-chip')[1]).toHaveAttribute('data-kind', 'image')
  })

  it('flags a PDF the model cannot take, locks Send, and "Switch model" offers the models that accept it', async () => {
    renderChat()
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveAttribute('data-model', 'local/echo'))
    await userEvent.type(screen.getByTestId('composer'), 'read this')
    await attach(file([PDF], 'doc.pdf'))
    expect(await screen.findByTestId('model-support-flag')).toHaveTextContent('The selected model does not accept PDF files.')
    expect(screen.getByTestId('chip-flag')).toBeInTheDocument()
    expect(screen.getByTestId('send')).toBeDisabled()

    await userEvent.click(screen.getByTestId('switch-model'))
    const menu = screen.getByTestId('switch-model-menu')
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((b) => b.textContent),
    ).toEqual(['Reader (Local)'])
    await userEvent.click(within(menu).getByRole('menuitem'))
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveAttribute('data-model', 'local/reader'))
    expect(screen.queryByTestId('model-support-flag')).toBeNull()
    expect(screen.getByTestId('send')).toBeEnabled()

    // An image on a text-only model is flagged too.
    await userEvent.click(screen.getByTestId('model-picker'))
    await userEvent.click(screen.getByRole('option', { name: /^Plain · Local/ }))
    await attach(file([PNG], 'p.png'))
    expect(await screen.findByTestId('model-support-flag')).toHaveTextContent('does not accept images')
  })

  it('an unknown binary is flagged: no model can read it', async () => {
    renderChat()
    await attach(file([new Uint8Array([0, 1, 2, 255, 254])], 'blob.bin'))
    expect(await screen.findByTestId('model-support-flag')).toHaveTextContent('Binary files cannot be sent')
    expect(screen.getByTestId('send')).toBeDisabled()
  })
})
