import { describe, expect, it } from 'vitest'
import { pendingOutcome } from '../../../src/features/chat/pending-send'

const p = { messageID: 'msg_mine', sentAt: 1000 }

describe('pendingOutcome', () => {
  it('is confirmed once the server has the message, whatever else happened', () => {
    expect(pendingOutcome(p, ['msg_a', 'msg_mine'], { at: 2000 }, true)).toBe('confirmed')
  })
  it('is lost when the session failed after the send without storing it', () => {
    expect(pendingOutcome(p, ['msg_a'], { at: 1500 }, false)).toBe('lost')
  })
  it('is lost when the session went idle again without it', () => {
    expect(pendingOutcome(p, [], undefined, true)).toBe('lost')
  })
  it('an error from before the send does not count', () => {
    expect(pendingOutcome(p, [], { at: 500 }, false)).toBe('waiting')
  })
  it('waits while the turn is starting', () => {
    expect(pendingOutcome(p, ['msg_a'], undefined, false)).toBe('waiting')
  })
})

describe('giving text back to the composer', () => {
  it('never drops or overwrites what the user typed meanwhile, and never doubles itself', async () => {
    const { useDraftsStore } = await import('../../../src/features/chat/drafts-store')
    const { giveBack } = useDraftsStore.getState()
    giveBack('k1', 'lost message')
    expect(useDraftsStore.getState().drafts.k1).toBe('lost message')
    useDraftsStore.getState().setDraft('k2', 'typed since')
    giveBack('k2', 'lost message')
    expect(useDraftsStore.getState().drafts.k2).toBe('lost message\n\ntyped since')
    giveBack('k2', 'lost message')
    expect(useDraftsStore.getState().drafts.k2).toBe('lost message\n\ntyped since')
  })
})
