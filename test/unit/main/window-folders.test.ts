import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkWindowFolders } from '../../../core/security/window-folders'

const root = mkdtempSync(join(tmpdir(), 'retake-folders-'))
const project = join(root, 'project')
const fork = join(root, 'fork')
const victim = join(root, 'victim')
for (const d of [project, fork, victim]) mkdirSync(d)
symlinkSync(project, join(root, 'link-to-project'))
symlinkSync(victim, join(root, 'link-to-victim'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const opened = [project, fork]
const get = (path: string, headers: Record<string, string> = {}) => checkWindowFolders({ method: 'GET', path, headers }, opened)
const q = (dir: string) => `/session?directory=${encodeURIComponent(dir)}`

describe('the folders a window’s request may name', () => {
  it('the opened project and a fork’s folder, by query or header, also through a symlink', () => {
    expect(get(q(project)).ok).toBe(true)
    expect(get(q(fork)).ok).toBe(true)
    expect(get(q(join(root, 'link-to-project'))).ok).toBe(true)
    expect(get('/session', { 'x-opencode-directory': encodeURIComponent(project) }).ok).toBe(true)
  })

  it('any other folder is refused, however it is spelled', () => {
    for (const dir of [victim, join(root, 'link-to-victim'), `${project}/../victim`, root, join(project, 'sub'), 'victim', join(root, 'missing')]) {
      const out = get(q(dir))
      expect(out, dir).toMatchObject({ ok: false, status: 403 })
      expect(get('/session', { 'x-opencode-directory': encodeURIComponent(dir) }), dir).toMatchObject({ ok: false, status: 403 })
    }
  })

  it('a request naming no folder, two folders, a workspace or an undecodable header is refused', () => {
    expect(get('/session')).toMatchObject({ ok: false })
    expect(get(`${q(project)}&directory=${encodeURIComponent(victim)}`)).toMatchObject({ ok: false })
    expect(get(q(project), { 'x-opencode-directory': encodeURIComponent(victim) })).toMatchObject({ ok: false })
    expect(get(`${q(project)}&workspace=wrk_1`)).toMatchObject({ ok: false })
    expect(get(q(project), { 'x-opencode-workspace': 'wrk_1' })).toMatchObject({ ok: false })
    expect(get('/session', { 'x-opencode-directory': '%E0%A4%A' })).toMatchObject({ ok: false })
  })

  it('forwards exactly the folder it checked, and the rest of the request as it was', () => {
    const out = get(`/session?roots=true&directory=${encodeURIComponent(project)}`, { 'x-opencode-directory': encodeURIComponent(project), accept: 'application/json' })
    expect(out.ok).toBe(true)
    if (!out.ok) return
    const url = new URL(out.req.path, 'http://x')
    expect(url.pathname).toBe('/session')
    expect(url.searchParams.getAll('directory')).toEqual([project])
    expect(url.searchParams.get('roots')).toBe('true')
    expect(out.req.headers['x-opencode-directory']).toBe(encodeURIComponent(project))
    expect(out.req.headers.accept).toBe('application/json')
  })
})
