import { describe, expect, it } from 'vitest'
import { defaultDataDir, parseWebArgs, startCommandOf } from '../../../web/cli-args'

describe('parseWebArgs', () => {
  it('takes every flag, in both --flag value and --flag=value forms', () => {
    const o = parseWebArgs(['--port', '0', '--data-dir', 'd', '--opencode-config=cfg.json', '--project', '/p', '--remote', 'http://127.0.0.1:4096/', '--host', '0.0.0.0'], '/cwd')
    expect(o).toMatchObject({ port: 0, dataDir: '/cwd/d', opencodeConfig: '/cwd/cfg.json', project: '/p', remote: 'http://127.0.0.1:4096', host: '0.0.0.0' })
  })
  it('has defaults a person can run with', () => {
    const o = parseWebArgs([])
    expect(o.port).toBe(0) // a free port: the printed URL says which
    expect(o.host).toBe('127.0.0.1')
    expect(o.remote).toBeNull()
  })
  it.each([
    [['--port', 'abc'], /--port must be a number/],
    [['--port', '70000'], /--port must be a number/],
    [['--port'], /--port needs a value/],
    [['--data-dir', '--port', '1'], /--data-dir needs a value/],
    [['--remote', 'nope'], /--remote must be a URL/],
    [['--remote', 'ftp://x'], /--remote must be http/],
    [['--bogus'], /Unknown option --bogus/],
  ])('%j is refused with a clear message', (argv, msg) => expect(() => parseWebArgs(argv)).toThrow(msg))
})

describe('defaultDataDir', () => {
  it('follows each platform’s convention and RETAKE_DATA_DIR', () => {
    expect(defaultDataDir({ RETAKE_DATA_DIR: '/x' }, 'linux')).toBe('/x')
    expect(defaultDataDir({ XDG_DATA_HOME: '/xdg' }, 'linux')).toBe('/xdg/retake')
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/Retake$/)
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32')).toMatch(/Retake$/)
  })
})

describe('startCommandOf', () => {
  it('gives back the command this run was started with, quoted for a shell', () => {
    expect(startCommandOf([], 'web')).toBe('npm run web')
    expect(startCommandOf(['--project', '/home/me/my app', '--port', '0'], 'web')).toBe("npm run web -- --project '/home/me/my app' --port 0")
    expect(startCommandOf([], 'start')).toBe('npm start')
    expect(startCommandOf(['--project', "it's"], undefined)).toBe(`npm run web -- --project 'it'\\''s'`)
  })
})
