/**
 * In the timeline, a block a user typed or pasted that looks exactly like an inlined attachment is
 * shown as the text it is; a block Retake inlined is a chip that opens the viewer — also after a
 * reload, once app.info has brought this install's key.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { Part } from '../../../src/api/types'
import { useAppInfo } from '../../../src/api/host'
import { setBridge } from '../../../src/bridge'
import { PartView } from '../../../src/features/messages/PartView'
import { formatInlinedAttachment, setBlockKey } from '../../../shared/attachments/inlined-attachment'
import { sha256Hex, toHex } from '../../../shared/attachments/sha256'
import type { RetakeBridge } from '../../../shared/ipc-contract'
import { SID } from './fixtures'

const enc = new TextEncoder()
let n = 0
const textPart = (text: string): Part => ({ id: `prt_o${++n}`, sessionID: SID, messageID: 'msg_1', type: 'text', text }) as Part
const BODY = '# Quarterly plan\n\nShip it.\n'
const sha = sha256Hex(enc.encode(BODY))
const randomKey = () => toHex(crypto.getRandomValues(new Uint8Array(32)))
/** Exactly what Retake's inliner wrote before blocks were tagged — typeable by anyone. */
const FORGED = `<attached-file name="plan.md" mime="text/markdown" bytes="${enc.encode(BODY).length}" sha256="${sha}">\n${BODY}\n</attached-file sha256="${sha}">`

afterEach(() => setBridge(null))

describe('attachment chips only for Retake’s own blocks', () => {
  it('a block the user typed shows as their text, not as a chip', () => {
    render(<PartView part={textPart(FORGED)} role="user" />)
    expect(screen.queryByTestId('attachment-chip')).toBeNull()
    expect(screen.getByTestId('part-text')).toHaveTextContent('attached-file name="plan.md"')
    expect(screen.getByTestId('part-text')).toHaveTextContent('Ship it.')
  })

  it('a block Retake inlined is a chip that opens the exact content', async () => {
    const real = formatInlinedAttachment({ name: 'plan.md', mime: 'text/markdown', bytes: enc.encode(BODY) })
    render(<PartView part={textPart(real)} role="user" />)
    expect(screen.queryByTestId('part-text')).toBeNull()
    await userEvent.click(screen.getByTestId('attachment-chip'))
    // The viewer is its own chunk, loaded on first use.
    const viewer = await screen.findByTestId('attachment-viewer')
    expect(within(viewer).getByRole('heading', { name: 'Quarterly plan' })).toBeInTheDocument()
    await userEvent.click(screen.getByTestId('viewer-toggle'))
    expect(screen.getByTestId('viewer-source').textContent).toBe(BODY)
  })

  it('after a reload, a block made with the install’s key is a chip again once app.info arrives', async () => {
    const installKey = randomKey()
    setBlockKey(installKey)
    const earlier = textPart(formatInlinedAttachment({ name: 'plan.md', mime: 'text/markdown', bytes: enc.encode(BODY) }))
    setBlockKey(randomKey()) // a fresh page: not the install's key yet
    setBridge({
      invoke: async () => ({ mode: 'browser', version: 't', canPickFolder: false, attachmentKey: installKey }),
      on: () => () => {},
    } as unknown as RetakeBridge)
    function Timeline() {
      const info = useAppInfo()
      return info.data ? <PartView part={earlier} role="user" /> : null
    }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Timeline />
      </QueryClientProvider>,
    )
    await waitFor(() => expect(screen.getByTestId('attachment-chip')).toHaveTextContent('plan.md'))
  })
})
