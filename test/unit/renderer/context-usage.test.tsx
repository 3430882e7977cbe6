/** The header's context meter and cost: what it reads from the messages, and what it shows. */
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Provider } from '../../../src/api/types'
import { ContextMeter } from '../../../src/features/chat/ContextMeter'
import { contextUsage, formatCost, formatTokens } from '../../../src/features/chat/context-usage'
import { assistant, user } from './fixtures'

const tokens = (input: number, output: number, read = 0, write = 0, reasoning = 0) => ({ input, output, reasoning, cache: { read, write } })
const providers = [{ id: 'local', name: 'Local', models: { echo: { id: 'echo', name: 'Echo', limit: { context: 100_000, output: 4096 } } } }] as unknown as Provider[]

describe('contextUsage', () => {
  it('is the last answered request’s tokens, cache included, against the answering model’s window', () => {
    const messages = [
      user('m1'),
      assistant('m2', 'm1', { tokens: tokens(1000, 200), cost: 0.002 }),
      user('m3'),
      assistant('m4', 'm3', { tokens: tokens(3000, 500, 6000, 400, 100), cost: 0.01 }),
      assistant('m5', 'm3', { tokens: tokens(10_000, 300), cost: 0.02 }),
    ]
    expect(contextUsage(messages, providers)).toEqual({ used: 10_300, limit: 100_000, sessionCost: 0.032, turnCost: 0.03 })
    expect(contextUsage(messages.slice(0, 4), providers).used).toBe(3000 + 500 + 6000 + 400 + 100)
  })

  it('an answer that failed before the provider replied does not empty the context', () => {
    const messages = [user('m1'), assistant('m2', 'm1', { tokens: tokens(5000, 100) }), user('m3'), assistant('m4', 'm3')]
    expect(contextUsage(messages, providers).used).toBe(5100)
  })

  it('has no window for a model its provider does not describe', () => {
    const messages = [user('m1'), assistant('m2', 'm1', { tokens: tokens(10, 1), providerID: 'gone', modelID: 'x' })]
    expect(contextUsage(messages, providers).limit).toBeUndefined()
  })

  it('formats for a glance', () => {
    expect([formatTokens(999), formatTokens(1234), formatTokens(12_345), formatTokens(1_500_000)]).toEqual(['999', '1.2K', '12K', '1.5M'])
    expect([formatCost(0.00123), formatCost(0.5), formatCost(12.345)]).toEqual(['$0.0012', '$0.50', '$12.35'])
  })
})

describe('ContextMeter', () => {
  it('says the fill and the cost in words, and nothing before an answer', () => {
    const { rerender } = render(<ContextMeter messages={[user('m1')]} providers={providers} />)
    expect(screen.queryByTestId('context-meter')).toBeNull()
    rerender(<ContextMeter messages={[user('m1'), assistant('m2', 'm1', { tokens: tokens(45_000, 5000), cost: 0.25 })]} providers={providers} />)
    const meter = screen.getByRole('group')
    expect(meter).toHaveAccessibleName('Context: 50,000 tokens of 100,000 (50%). Cost: $0.25 this session, $0.25 the last turn')
    expect(screen.getByTestId('context-tokens')).toHaveTextContent('50K / 100K')
    expect(screen.getByTestId('session-cost')).toHaveTextContent('$0.25')
  })
})
