/** The project picker in browser mode: browse the host's folders from home and open one. */
import { describe, expect, it } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { setBridge } from '../../../src/bridge'
import { ProjectPicker } from '../../../src/features/sessions/ProjectPicker'
import type { RetakeBridge } from '../../../shared/ipc-contract'

const TREE: Record<string, string[]> = { '/home/u': ['code', '.config'], '/home/u/code': ['app'], '/home/u/code/app': [] }

function host() {
  const opened: string[] = []
  const bridge = {
    async invoke(channel: string, input: { path?: string }) {
      if (channel === 'projects.recent') return []
      if (channel === 'projects.browse') {
        const path = input.path ?? '/home/u'
        const parent = path === '/home/u' ? '/home' : path.slice(0, path.lastIndexOf('/'))
        return {
          path,
          parent,
          folders: (TREE[path] ?? []).map((name) => ({ name, path: `${path}/${name}`, hidden: name.startsWith('.'), project: name === 'app' })),
          truncated: false,
        }
      }
      if (channel === 'projects.open') {
        opened.push(input.path!)
        return { path: input.path, name: 'app', openedAt: 1 }
      }
      throw new Error(`unexpected ${channel}`)
    },
    on: () => () => {},
  }
  return { bridge: bridge as unknown as RetakeBridge, opened }
}

describe('ProjectPicker (no native dialog)', () => {
  it('browses from home into a project, keeps the path field in step, hides dot folders, and opens it', async () => {
    const h = host()
    setBridge(h.bridge)
    const onOpen: string[] = []
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ProjectPicker canPickFolder={false} onOpen={(p) => onOpen.push(p)} />
      </QueryClientProvider>,
    )
    await userEvent.click(screen.getByTestId('browse-folders'))
    await waitFor(() => expect(screen.getByTestId('folder-path')).toHaveTextContent('/home/u'))
    expect(screen.getAllByTestId('folder-item').map((b) => b.textContent)).toEqual([expect.stringContaining('code')])
    await userEvent.click(screen.getByText('hidden'))
    expect(screen.getAllByTestId('folder-item')).toHaveLength(2)

    await userEvent.click(screen.getAllByTestId('folder-item')[0]!)
    await waitFor(() => expect(screen.getByTestId('folder-path')).toHaveTextContent('/home/u/code'))
    const app = await screen.findByText(/app/)
    expect(app.closest('button')).toHaveAttribute('data-project', 'true')
    await userEvent.click(app)
    await waitFor(() => expect(screen.getByTestId('folder-path')).toHaveTextContent('/home/u/code/app'))
    expect(screen.getByTestId('project-path')).toHaveValue('/home/u/code/app')
    await userEvent.click(screen.getByTestId('folder-up'))
    await waitFor(() => expect(screen.getByTestId('folder-path')).toHaveTextContent(/^\/home\/u\/code$/))
    await userEvent.click(screen.getByTestId('folder-open'))
    await waitFor(() => expect(onOpen).toEqual(['/home/u/code']))
    expect(h.opened).toEqual(['/home/u/code'])
  })
})
