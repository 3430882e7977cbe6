import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { contentTypeFor, resolveStaticPath } from '../../../core/security/static-path'

const root = '/srv/app/dist/renderer'

describe('resolveStaticPath', () => {
  it('maps the root and assets inside the folder', () => {
    expect(resolveStaticPath(root, '/')).toBe(join(root, 'index.html'))
    expect(resolveStaticPath(root, '/assets/index-abc.js')).toBe(join(root, 'assets/index-abc.js'))
    expect(resolveStaticPath(root, '/assets/a%20b.css?v=1')).toBe(join(root, 'assets/a b.css'))
  })
  it.each([
    '/../secret',
    '/assets/../../secret',
    '/%2e%2e/secret',
    '/%2E%2E/%2e%2e/etc/passwd',
    '/..%2fsecret',
    '/assets/..%5c..%5csecret',
    '/C:/Windows/system32',
    '//server/share/file',
    '/%5c%5cserver%5cshare',
    '/a%00.js',
    '/%E0%A4%A',
    '/./index.html',
  ])('refuses %s', (p) => expect(resolveStaticPath(root, p)).toBeNull())
})

describe('contentTypeFor', () => {
  it('knows the renderer’s file types and falls back to octet-stream', () => {
    expect(contentTypeFor('x/index.html')).toMatch(/^text\/html/)
    expect(contentTypeFor('x/a.JS')).toMatch(/^text\/javascript/)
    expect(contentTypeFor('x/a.unknown')).toBe('application/octet-stream')
  })
})
