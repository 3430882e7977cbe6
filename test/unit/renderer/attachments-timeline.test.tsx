/**
 * Attachments in the timeline and the viewer (jsdom): an inlined text file is a chip under the
 * user's text, never a wall of text; a real file part is a chip too (images inline); the viewer
 * shows exactly the bytes that were sent (CRLF, BOM), CSV as a table, markdown rendered with a
 * source toggle, and saves the same bytes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Part } from '../../../src/api/types'
import { PartView } from '../../../src/features/messages/PartView'
import { bytesToDataUrl, formatInlinedAttachment } from '../../../shared/attachments/inlined-attachment'
import { SID } from './fixtures'

const enc = new TextEncoder()
let n = 0
const textPart = (text: string): Part => ({ id: `prt_t${++n}`, sessionID: SID, messageID: 'msg_1', type: 'text', text }) as Part
const filePart = (mime: string, filename: string, url: string): Part => ({ id: `prt_f${++n}`, sessionID: SID, messageID: 'msg_1', type: 'file', mime, filename, url }) as Part
const inline = (name: string, mime: string, content: string) => textPart(formatInlinedAttachment({ name, mime, bytes: enc.encode(content) }))

const CSV = '\uFEFFname,qty\r\n"Widget, large",2\r\n"say ""hi""",3\r\n'
const MD = '# Title\r\n\r\nSome *emphasis* and `code`.\r\n'

afterEach(() => vi.unstubAllGlobals())

describe('attachments in the timeline', () => {
  it('an inlined text part is a chip with name, size and type, not its content', () => {
    render(<PartView part={inline('data.csv', 'text/csv', CSV)} role="user" />)
    const chip = screen.getByTestId('attachment-chip')
    expect(chip).toHaveTextContent(/data\.csv/)
    expect(chip).toHaveTextContent(/\d+ B · csv/)
    expect(screen.getByTestId('attachment')).toHaveAttribute('data-inline', 'true')
    expect(document.body.textContent).not.toContain('Widget')
    expect(document.body.textContent).not.toContain('attached-file')
    expect(screen.queryByTestId('part-text')).toBeNull()
  })

  it('typed text that only looks like an attachment stays text', () => {
    render(<PartView part={textPart('<attached-file name="x" mime="text/plain" bytes="1" sha256="00">\nx\n</attached-file sha256="00">')} role="user" />)
    expect(screen.getByTestId('part-text')).toHaveTextContent('attached-file')
    expect(screen.queryByTestId('attachment-chip')).toBeNull()
  })

  it('a real text/markdown file part (another client) is a chip that opens in the viewer', async () => {
    render(<PartView part={filePart('text/markdown', 'notes.md', bytesToDataUrl(enc.encode(MD), 'text/markdown'))} role="user" />)
    expect(screen.getByTestId('attachment')).toHaveAttribute('data-inline', 'false')
    await userEvent.click(screen.getByTestId('attachment-chip'))
    const viewer = await screen.findByTestId('attachment-viewer')
    expect(within(viewer).getByRole('heading', { name: 'Title' })).toBeInTheDocument()
  })

  it('an image file part shows inline, and a file:// part is a chip without content', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])
    const { unmount } = render(<PartView part={filePart('image/png', 'pixel.png', bytesToDataUrl(png, 'image/png'))} role="user" />)
    expect(screen.getByTestId('attachment-image')).toHaveAttribute('src', expect.stringMatching(/^data:image\/png;base64,/))
    unmount()
    render(<PartView part={filePart('text/plain', 'notes.txt', 'file:///p/notes.txt')} role="user" />)
    expect(screen.getByTestId('attachment-chip')).toHaveTextContent('notes.txt')
  })
})

describe('the attachment viewer', () => {
  it('CSV: a table, and the source is exactly the bytes sent (BOM and CRLF kept)', async () => {
    render(<PartView part={inline('data.csv', 'text/csv', CSV)} role="user" />)
    await userEvent.click(screen.getByTestId('attachment-chip'))
    const table = await screen.findByTestId('viewer-table')
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => Array.from(r.querySelectorAll('th,td'), (c) => c.textContent))
    expect(rows).toEqual([
      ['name', 'qty'],
      ['Widget, large', '2'],
      ['say "hi"', '3'],
    ])
    await userEvent.click(screen.getByTestId('viewer-toggle'))
    expect(screen.getByTestId('viewer-source').textContent).toBe(CSV)
  })

  it('markdown: rendered, with a source toggle showing the exact text', async () => {
    render(<PartView part={inline('notes.md', 'text/markdown', MD)} role="user" />)
    await userEvent.click(screen.getByTestId('attachment-chip'))
    expect((await screen.findByTestId('viewer-rendered')).querySelector('h1')).toHaveTextContent('Title')
    expect(screen.getByTestId('viewer-toggle')).toHaveTextContent('Source')
    await userEvent.click(screen.getByTestId('viewer-toggle'))
    expect(screen.getByTestId('viewer-source').textContent).toBe(MD)
    await userEvent.click(screen.getByTestId('viewer-toggle'))
    expect(screen.getByTestId('viewer-rendered')).toBeInTheDocument()
  })

  it('code is highlighted and still exact (CR survives the HTML)', async () => {
    const code = 'const a = 1\r\nconst b = "<b>"\r\n'
    render(<PartView part={inline('a.ts', 'text/x-typescript', code)} role="user" />)
    await userEvent.click(screen.getByTestId('attachment-chip'))
    // The viewer and the TypeScript grammar are loaded on demand (src/features/attachments/lazy.tsx, src/ui/markdown/highlight.ts).
    await waitFor(() => expect(screen.getByTestId('viewer-source').querySelector('.hljs-keyword')).not.toBeNull())
    const source = screen.getByTestId('viewer-source')
    expect(source.textContent).toBe(code)
  })

  it('copy copies the text; save downloads the same bytes; Escape closes', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const blobs: Blob[] = []
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.push(b), 'blob:x'), revokeObjectURL: () => {} }))
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('data.csv')
    })
    render(<PartView part={inline('data.csv', 'text/csv', CSV)} role="user" />)
    await userEvent.click(screen.getByTestId('attachment-chip'))
    await userEvent.click(await screen.findByTestId('viewer-copy'))
    expect(writeText).toHaveBeenCalledWith(CSV)
    await userEvent.click(screen.getByTestId('viewer-save'))
    expect(clicked).toHaveBeenCalledOnce()
    const saved = await new Promise<Uint8Array>((resolve) => {
      const r = new FileReader()
      r.onload = () => resolve(new Uint8Array(r.result as ArrayBuffer))
      r.readAsArrayBuffer(blobs[0]!)
    })
    expect(Array.from(saved)).toEqual(Array.from(enc.encode(CSV)))
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByTestId('attachment-viewer')).toBeNull()
    clicked.mockRestore()
  })
})
