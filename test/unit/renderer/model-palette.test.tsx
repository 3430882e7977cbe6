import './cmdk-env'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ModelPicker } from '../../../src/features/models/ModelPicker'
import { ModelPalette } from '../../../src/features/models/ModelPalette'
import { formatContext, matchesQuery, modelSections, ROW_LIMIT } from '../../../src/features/models/model-list'
import { modelOptions, type ModelOption } from '../../../src/features/models/model-choice'
import { useModelPrefs } from '../../../src/features/models/model-prefs-store'
import { useEscapeStops } from '../../../src/features/chat/use-escape-stops'
import type { Provider } from '../../../src/api/types'

const caps = (over: { attachment?: boolean; image?: boolean } = {}) => ({
  reasoning: false,
  toolcall: true,
  attachment: over.attachment ?? false,
  input: { text: true, image: over.image ?? false, pdf: false },
})
function provider(id: string, name: string, models: Record<string, { name: string; context?: number; attachment?: boolean; image?: boolean }>) {
  return {
    id,
    name,
    source: 'config',
    env: [],
    options: {},
    models: Object.fromEntries(Object.entries(models).map(([mid, m]) => [mid, { id: mid, name: m.name, capabilities: caps(m), limit: { context: m.context ?? 0, output: 0 } }])),
  } as unknown as Provider
}
const providers = [
  provider('anthropic', 'Anthropic', {
    'claude-sonnet': { name: 'Claude Sonnet', context: 200_000, attachment: true, image: true },
    'claude-haiku': { name: 'Claude Haiku', context: 200_000 },
  }),
  provider('openai', 'OpenAI', { 'gpt-4o': { name: 'GPT-4o', context: 128_000, image: true }, 'o3-mini': { name: 'o3 mini' } }),
  provider('local', 'Local', { echo: { name: 'Echo' }, 'echo-2': { name: 'Echo 2' } }),
]
const options = modelOptions(providers)
const names = () => screen.getAllByRole('option').map((o) => o.querySelector('.palette-row-name')!.textContent)

afterEach(() => useModelPrefs.setState({ recent: [], favourites: [] }))

describe('model list logic', () => {
  it('matches words of the model or provider name, ignoring case and punctuation', () => {
    const byName = (q: string) => options.filter((o) => matchesQuery(o, q)).map((o) => o.key)
    expect(byName('sonnet')).toEqual(['anthropic/claude-sonnet'])
    expect(byName('OPENAI')).toEqual(['openai/gpt-4o', 'openai/o3-mini'])
    expect(byName('gpt4o')).toEqual(['openai/gpt-4o'])
    expect(byName('anth haiku')).toEqual(['anthropic/claude-haiku'])
    expect(byName('nothing')).toEqual([])
  })

  it('pins favourites, then recent ones not starred, and caps the provider rows', () => {
    const s = modelSections(options, '', { favourites: ['local/echo'], recent: ['openai/gpt-4o', 'local/echo', 'gone/model'] })
    expect(s.favourites.map((o) => o.key)).toEqual(['local/echo'])
    expect(s.recent.map((o) => o.key)).toEqual(['openai/gpt-4o'])
    expect(s.groups.map((g) => g.provider)).toEqual(['Anthropic', 'OpenAI', 'Local'])
    const many: ModelOption[] = Array.from({ length: ROW_LIMIT + 7 }, (_, i) => ({ ...options[0]!, key: `p/m${i}` }))
    expect(modelSections(many, '', { favourites: [], recent: [] }).hidden).toBe(7)
  })

  it('formats context sizes for a glance', () => {
    expect([formatContext(200_000), formatContext(1_048_576), formatContext(0), formatContext(512)]).toEqual(['200K', '1M', undefined, '512'])
  })
})

describe('ModelPalette', () => {
  it('filters by typing and chooses with the arrows and Enter', async () => {
    const onChoose = vi.fn()
    render(<ModelPalette options={options} onChoose={onChoose} />)
    expect(screen.getByRole('listbox')).toBeInTheDocument()
    expect(names()).toEqual(['Claude Haiku', 'Claude Sonnet', 'GPT-4o', 'o3 mini', 'Echo', 'Echo 2'])
    await userEvent.type(screen.getByTestId('model-search'), 'echo')
    await waitFor(() => expect(names()).toEqual(['Echo', 'Echo 2']))
    await userEvent.keyboard('{ArrowDown}{Enter}')
    expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ key: 'local/echo-2' }))
    // Choosing puts it first among the recent models.
    expect(useModelPrefs.getState().recent).toEqual(['local/echo-2'])
  })

  it('shows context size and what each model takes besides text', () => {
    render(<ModelPalette options={options} onChoose={() => {}} />)
    const sonnet = screen.getByRole('option', { name: /^Claude Sonnet · Anthropic/ })
    expect(sonnet).toHaveAccessibleName('Claude Sonnet · Anthropic, 200K context, takes files and images')
    expect(within(sonnet).getByText('200K')).toBeInTheDocument()
    expect(screen.getByRole('option', { name: /^GPT-4o/ })).toHaveAccessibleName('GPT-4o · OpenAI, 128K context, takes images')
    expect(screen.getByRole('option', { name: /^o3 mini/ })).toHaveAccessibleName('o3 mini · OpenAI')
  })

  it('lists favourites first, then recent models, and the star toggles (persisted)', async () => {
    useModelPrefs.setState({ recent: ['openai/o3-mini', 'local/echo'], favourites: [] })
    render(<ModelPalette options={options} onChoose={() => {}} />)
    expect(names().slice(0, 2)).toEqual(['o3 mini', 'Echo'])
    await userEvent.click(screen.getAllByRole('button', { name: 'Star Echo 2' })[0]!)
    expect(names().slice(0, 3)).toEqual(['Echo 2', 'o3 mini', 'Echo'])
    expect(screen.getByRole('group', { name: '★ Favourites' })).toBeInTheDocument()
    expect(JSON.parse(localStorage.getItem('retake.modelPrefs')!).state.favourites).toEqual(['local/echo-2'])
    // Ctrl+S stars the highlighted row from the keyboard (the first row: Echo 2, unstarred again).
    await userEvent.click(screen.getByTestId('model-search'))
    await userEvent.keyboard('{Control>}s{/Control}')
    expect(useModelPrefs.getState().favourites).toEqual([])
  })
})

describe('ModelPalette with a catalogue the size of models.dev', () => {
  it('230 providers: renders at most ROW_LIMIT rows, says how many more, and typing reaches the last provider', async () => {
    const many = Array.from({ length: 230 }, (_, p) =>
      provider(`p${p}`, `Provider ${p}`, Object.fromEntries(Array.from({ length: 15 }, (_, m) => [`model-${m}`, { name: `Model ${m} of ${p}`, context: 32_000 }]))),
    )
    const onChoose = vi.fn()
    render(<ModelPalette options={modelOptions(many)} onChoose={onChoose} />)
    expect(screen.getAllByRole('option')).toHaveLength(ROW_LIMIT)
    expect(screen.getByText(`${230 * 15 - ROW_LIMIT} more models — type to narrow the list.`)).toBeInTheDocument()
    // Pasted at once: typing it key by key re-renders 300 rows per key, slow in jsdom only.
    await userEvent.click(screen.getByTestId('model-search'))
    await userEvent.paste('provider 229 model 14')
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1))
    await userEvent.keyboard('{Enter}')
    expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ key: 'p229/model-14' }))
    // jsdom renders 300 rows in about a second (Chromium: under 100 ms, see the e2e); room for a busy machine.
  }, 30_000)
})

describe('ModelPicker', () => {
  const resolved = { ref: { providerID: 'local', modelID: 'echo' }, source: 'default' as const }

  it('opens on click with the search focused, Esc closes and gives focus back', async () => {
    const onChange = vi.fn()
    render(<ModelPicker providers={providers} resolved={resolved} loading={false} onChange={onChange} />)
    const button = screen.getByTestId('model-picker')
    expect(button).toHaveAccessibleName('Model Echo (default) Local') // all it shows: label, model, provider
    expect(button).toHaveAttribute('data-model', 'local/echo')
    await userEvent.click(button)
    expect(screen.getByTestId('model-search')).toHaveFocus()
    // The model in use is highlighted, so Enter alone keeps it.
    expect(screen.getByRole('option', { selected: true })).toHaveAccessibleName(/^Echo · Local, default, current/)
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByTestId('model-palette')).toBeNull()
    expect(button).toHaveFocus()
    expect(onChange).not.toHaveBeenCalled()
  })

  it('picks a model by typing part of its name and Enter', async () => {
    const onChange = vi.fn()
    render(<ModelPicker providers={providers} resolved={resolved} loading={false} onChange={onChange} />)
    await userEvent.click(screen.getByTestId('model-picker'))
    await userEvent.keyboard('sonn{Enter}')
    expect(onChange).toHaveBeenCalledWith({ providerID: 'anthropic', modelID: 'claude-sonnet' })
    expect(screen.queryByTestId('model-palette')).toBeNull()
    expect(screen.getByTestId('model-picker')).toHaveFocus()
  })

  it('Esc that closes the palette does not also stop the running turn', async () => {
    const stop = vi.fn()
    function Running() {
      useEscapeStops(true, stop)
      return null
    }
    render(
      <>
        <Running />
        <ModelPicker providers={providers} resolved={resolved} loading={false} onChange={() => {}} />
      </>,
    )
    await userEvent.click(screen.getByTestId('model-picker'))
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByTestId('model-palette')).toBeNull()
    expect(stop).not.toHaveBeenCalled()
    // With the palette closed, Esc stops the turn as before.
    await userEvent.keyboard('{Escape}')
    expect(stop).toHaveBeenCalledOnce()
  })

  it('a click outside closes it', async () => {
    render(
      <>
        <button type="button">elsewhere</button>
        <ModelPicker providers={providers} resolved={resolved} loading={false} onChange={() => {}} />
      </>,
    )
    await userEvent.click(screen.getByTestId('model-picker'))
    await userEvent.click(screen.getByRole('button', { name: 'elsewhere' }))
    expect(screen.queryByTestId('model-palette')).toBeNull()
  })
})
