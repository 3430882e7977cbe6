import { describe, expect, it, vi } from 'vitest'
import { firstFrom } from '../../../core/retake/early-reads'

describe('firstFrom: a read made early answers the first call only', () => {
  it('answers the first matching call from the early read and every later call from the server', async () => {
    const read = vi.fn(async (id: string) => `fresh ${id}`)
    const get = firstFrom(Promise.resolve('early'), read, (id) => id === 'm1')
    expect(await get('m1')).toBe('early')
    expect(read).not.toHaveBeenCalled()
    // The verify read after the parts are deleted must see the server as it is now.
    expect(await get('m1')).toBe('fresh m1')
    expect(read).toHaveBeenCalledTimes(1)
  })

  it('reads afresh for a call the early read was not made for, keeping the early one for its own', async () => {
    const read = vi.fn(async (id: string) => `fresh ${id}`)
    const get = firstFrom(Promise.resolve('early'), read, (id) => id === 'm1')
    expect(await get('m2')).toBe('fresh m2')
    expect(await get('m1')).toBe('early')
  })

  it('an early read that failed is reported to the call that uses it, and is not unhandled if none does', async () => {
    const get = firstFrom(Promise.reject(new Error('status: 500')), async () => 'fresh')
    await expect(get()).rejects.toThrow('status: 500')
    const unused = firstFrom<[], string>(Promise.reject(new Error('never awaited')), async () => 'fresh')
    expect(typeof unused).toBe('function')
  })
})
