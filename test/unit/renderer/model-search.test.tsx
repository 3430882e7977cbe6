import './cmdk-env'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ModelPalette } from '../../../src/features/models/ModelPalette'
import { modelOptions } from '../../../src/features/models/model-choice'
import { matchTier, rankModels } from '../../../src/features/models/model-search'
import { useModelPrefs } from '../../../src/features/models/model-prefs-store'
import type { Provider } from '../../../src/api/types'

function provider(id: string, name: string, models: Record<string, string>) {
  return {
    id,
    name,
    source: 'config',
    env: [],
    options: {},
    models: Object.fromEntries(Object.entries(models).map(([mid, n]) => [mid, { id: mid, name: n }])),
  } as unknown as Provider
}
// A provider whose name holds the letters people type ("c", "a"): the trap of every-word-anywhere.
const options = modelOptions([
  provider('good', 'Good Cloud Labs', { 'good-a': 'Good A', 'good-b': 'Good B', 'good-c': 'Good C' }),
  provider('anthropic', 'Anthropic', { 'claude-sonnet': 'Claude Sonnet', 'claude-haiku': 'Claude Haiku' }),
  provider('openai', 'OpenAI', { 'gpt-4o': 'GPT-4o', 'o3-mini': 'o3 mini' }),
  provider('local', 'Local', { echo: 'Echo', 'echo-2': 'Echo 2', 'echo-noimg': 'Echo (text only)' }),
])
const byKey = (key: string) => options.find((o) => o.key === key)!

afterEach(() => useModelPrefs.setState({ recent: [], favourites: [] }))

describe('matchTier: the model’s own name first, its provider’s name last', () => {
  it.each([
    ['good c', 'good/good-c', 'exact'],
    ['GOOD  C', 'good/good-c', 'exact'],
    ['good-c', 'good/good-c', 'exact'], // its id
    ['good c', 'good/good-a', 'provider'], // "c" only in "Cloud"
    ['echo', 'local/echo', 'exact'],
    ['echo', 'local/echo-2', 'prefix'],
    ['gpt4', 'openai/gpt-4o', 'prefix'],
    ['sonn', 'anthropic/claude-sonnet', 'word-prefix'],
    ['text ech', 'local/echo-noimg', 'word-prefix'],
    ['onne', 'anthropic/claude-sonnet', 'contains'],
    ['clsn', 'anthropic/claude-sonnet', 'fuzzy'],
    ['anth sonnet', 'anthropic/claude-sonnet', 'provider'],
    ['openai', 'openai/o3-mini', 'provider'],
    ['nothing', 'local/echo', undefined],
    ['good z', 'good/good-a', undefined],
    ['', 'local/echo', 'exact'],
  ])('%j on %s → %s', (query, key, tier) => {
    expect(matchTier(byKey(key), query)).toBe(tier)
  })
})

describe('rankModels', () => {
  const ranked = (q: string, prefer: string[] = []) => rankModels(options, q, prefer).map((o) => o.key)

  it.each([
    ['good c', ['good/good-c', 'good/good-a', 'good/good-b']],
    ['good a', ['good/good-a', 'good/good-b', 'good/good-c']],
    ['echo', ['local/echo', 'local/echo-2', 'local/echo-noimg']],
    ['claude', ['anthropic/claude-haiku', 'anthropic/claude-sonnet']],
    ['o 2', ['local/echo-2']],
  ])('%j → %j', (query, keys) => {
    expect(ranked(query)).toEqual(keys)
  })

  it('a recent or starred model wins only among equals, never over a better match', () => {
    expect(ranked('good a', ['good/good-b'])[0]).toBe('good/good-a')
    expect(ranked('good', ['good/good-b'])).toEqual(['good/good-b', 'good/good-a', 'good/good-c'])
  })

  it('lists everything, in its order, for an empty query', () => {
    expect(ranked('  ')).toEqual(options.map((o) => o.key))
  })
})

describe('the model palette’s highlight follows the best match', () => {
  const selected = () => screen.getByRole('option', { selected: true }).getAttribute('data-model')

  it('"good c" with Good A current and recent: Good C is highlighted and Enter chooses it', async () => {
    useModelPrefs.setState({ recent: ['good/good-a', 'good/good-b'], favourites: [] })
    const onChoose = vi.fn()
    render(<ModelPalette options={options} current="good/good-a" onChoose={onChoose} />)
    expect(selected()).toBe('good/good-a')
    await userEvent.type(screen.getByTestId('model-search'), 'good c')
    await waitFor(() => expect(selected()).toBe('good/good-c'))
    await userEvent.keyboard('{Enter}')
    expect(onChoose).toHaveBeenCalledTimes(1)
    expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ key: 'good/good-c' }))
  })

  it('moves on every keystroke: "good" keeps the recent one first, "good b" moves to Good B', async () => {
    useModelPrefs.setState({ recent: ['good/good-a'], favourites: ['good/good-c'] })
    render(<ModelPalette options={options} current="good/good-a" onChoose={() => {}} />)
    await userEvent.type(screen.getByTestId('model-search'), 'good')
    await waitFor(() => expect(selected()).toBe('good/good-c'))
    await userEvent.type(screen.getByTestId('model-search'), ' b')
    await waitFor(() => expect(selected()).toBe('good/good-b'))
    // The best match is the first row, and a model each word only found in its provider's name comes last.
    expect(screen.getAllByRole('option').map((o) => o.getAttribute('data-model'))).toEqual(['good/good-b', 'good/good-c', 'good/good-a'])
  })
})
