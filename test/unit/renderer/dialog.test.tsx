/**
 * The one modal dialog (src/ui/Dialog.tsx): opened modal, named, focus on the safe choice, Esc
 * closes it through the caller, focus goes back to what opened it, and Esc meanwhile is the
 * dialog's (not "stop the running turn").
 */
import { useRef, useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { act, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Dialog } from '../../../src/ui/Dialog'
import { anyDialogOpen } from '../../../src/ui/open-dialogs'

function Opener({ onClosed }: { onClosed?(): void }) {
  const [open, setOpen] = useState(false)
  const cancel = useRef<HTMLButtonElement>(null)
  const close = () => {
    setOpen(false)
    onClosed?.()
  }
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open it
      </button>
      {open && (
        <Dialog className="dialog" label="Sure?" onClose={close} initialFocus={cancel}>
          <button type="button">Go ahead</button>
          <button ref={cancel} type="button" onClick={close}>
            Cancel
          </button>
        </Dialog>
      )}
    </>
  )
}

describe('Dialog', () => {
  it('opens modal with its name, focus on the safe choice, and counts as open', async () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, 'showModal')
    render(<Opener />)
    await userEvent.click(screen.getByRole('button', { name: 'Open it' }))
    const dialog = screen.getByRole('dialog', { name: 'Sure?' })
    expect(showModal).toHaveBeenCalledTimes(1)
    expect(dialog).toHaveAttribute('open')
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    expect(anyDialogOpen()).toBe(true)
    showModal.mockRestore()
  })

  it('Esc closes it through onClose and focus goes back to the opener', async () => {
    const onClosed = vi.fn()
    render(<Opener onClosed={onClosed} />)
    const opener = screen.getByRole('button', { name: 'Open it' })
    await userEvent.click(opener)
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(onClosed).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(opener).toHaveFocus()
    expect(anyDialogOpen()).toBe(false)
  })

  it('the browser’s cancel (Esc on the top-layer dialog) is React’s close, not the element’s own', async () => {
    const onClosed = vi.fn()
    render(<Opener onClosed={onClosed} />)
    await userEvent.click(screen.getByRole('button', { name: 'Open it' }))
    const cancel = new Event('cancel', { cancelable: true })
    const dialog = screen.getByRole('dialog')
    act(() => void dialog.dispatchEvent(cancel))
    expect(cancel.defaultPrevented).toBe(true)
    expect(onClosed).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
