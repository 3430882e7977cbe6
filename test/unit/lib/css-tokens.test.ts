import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Spacing, type sizes and radii come from the scales in base.css's :root (--space-*, --text-*,
// --radius*), so the UI has a handful of values instead of sixty. These tests read every
// stylesheet and name the file, line and declaration that slips back to a literal.

const STYLES = fileURLToPath(new URL('../../../src/styles', import.meta.url))

// The properties the scales cover. `font` is here because its shorthand can carry a size.
const SCALED = /^(padding|margin|scroll-padding|scroll-margin)(-[a-z-]+)?$|^(gap|row-gap|column-gap|font-size|font)$|^border(-[a-z]+)*-radius$/
// Absolute lengths. em and % (relative to the parent), vh/vw (relative to the window) and 0 may stay.
const LITERAL = /(^|[^\w.-])-?(\d+\.?\d*|\.\d+)(px|rem|pt)\b/
const TOKEN_NAME = /^--(space-|text-|radius)/

interface Decl {
  file: string
  line: number
  prop: string
  value: string
  /** The selectors / at-rules this declaration sits in, outermost first. */
  context: string[]
}

/** Declarations of one stylesheet, with the line each starts on. Enough CSS for our own files:
 *  comments, strings, nested blocks (@media, @supports, native nesting). */
function declarations(file: string, css: string): Decl[] {
  const out: Decl[] = []
  const stack: string[] = []
  let text = ''
  let start = -1 // offset of the segment's first non-space character
  const lineAt = (offset: number) => css.slice(0, offset).split('\n').length
  for (let i = 0; i < css.length; i++) {
    const c = css[i]
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2)
      i = end < 0 ? css.length : end + 1
      continue
    }
    if (c === '"' || c === "'") {
      let j = i + 1
      while (j < css.length && css[j] !== c) j += css[j] === '\\' ? 2 : 1
      if (start < 0) start = i
      text += css.slice(i, j + 1)
      i = j
      continue
    }
    if (c === '{') {
      stack.push(text.trim())
      text = ''
      start = -1
    } else if (c === ';' || c === '}') {
      const colon = text.indexOf(':')
      if (colon > 0 && stack.length > 0) {
        out.push({
          file,
          line: lineAt(start),
          prop: text.slice(0, colon).trim().toLowerCase(),
          value: text.slice(colon + 1).trim(),
          context: [...stack],
        })
      }
      if (c === '}') stack.pop()
      text = ''
      start = -1
    } else {
      if (start < 0 && !/\s/.test(c)) start = i
      text += c
    }
  }
  return out
}

const sheets = readdirSync(STYLES)
  .filter((f) => f.endsWith('.css'))
  .sort()
const all = sheets.flatMap((f) => declarations(f, readFileSync(join(STYLES, f), 'utf8')))
const show = (d: Decl) => `${d.file}:${d.line}  ${d.prop}: ${d.value}`
const inBaseRoot = (d: Decl) => d.file === 'base.css' && d.context[d.context.length - 1] === ':root'

describe('design tokens (src/styles)', () => {
  it('reads the stylesheets (the parser finds declarations, lines and blocks)', () => {
    expect(sheets).toContain('base.css')
    const parsed = declarations('x.css', '/* a: 1px; */\n.a { color: red }\n@media (x) {\n  .b:hover {\n    padding: 4px; content: "}"\n  }\n}\n')
    expect(parsed.map((d) => [d.line, d.prop, d.value, d.context.join(' > ')])).toEqual([
      [2, 'color', 'red', '.a'],
      [5, 'padding', '4px', '@media (x) > .b:hover'],
      [5, 'content', '"}"', '@media (x) > .b:hover'],
    ])
    expect(all.some((d) => d.prop === 'padding')).toBe(true)
  })

  it('no padding, margin, gap, font size or radius is written as a px/rem literal', () => {
    const literals = all.filter((d) => SCALED.test(d.prop) && LITERAL.test(d.value)).map(show)
    expect(literals, `use var(--space-*), var(--text-*) or var(--radius*) from base.css:\n${literals.join('\n')}`).toEqual([])
  })

  it('the scales are defined once, in base.css :root, and every token used exists', () => {
    const defs = all.filter((d) => TOKEN_NAME.test(d.prop))
    const elsewhere = defs.filter((d) => !inBaseRoot(d)).map(show)
    expect(elsewhere, `define scale tokens only in base.css :root:\n${elsewhere.join('\n')}`).toEqual([])
    const defined = new Set(defs.map((d) => d.prop))
    // A mistyped token (var(--space-10)) makes the whole declaration invalid, silently.
    const unknown = all.filter((d) => [...d.value.matchAll(/var\(\s*(--[\w-]+)/g)].some(([, name]) => TOKEN_NAME.test(name) && !defined.has(name))).map(show)
    expect(unknown, `unknown token:\n${unknown.join('\n')}`).toEqual([])
  })

  it('every colour is a token: no colour literal outside a custom property of :root', () => {
    // A literal colour works in one theme only; a token is light-dark(light, dark) and follows the theme.
    const COLOUR = /#[0-9a-f]{3,8}\b|\b(rgba?|hsla?|oklch|lab|lch)\(/i
    const stray = all.filter((d) => COLOUR.test(d.value) && !(d.prop.startsWith('--') && d.context[d.context.length - 1] === ':root')).map(show)
    expect(stray, `name the colour in a :root token (light-dark(light, dark)):\n${stray.join('\n')}`).toEqual([])
  })

  it('every colour token holds both themes (light-dark) or names another token', () => {
    const COLOUR = /#[0-9a-f]{3,8}\b|\b(rgba?|hsla?)\(/i
    const oneTheme = all
      .filter((d) => d.prop.startsWith('--') && COLOUR.test(d.value) && !d.value.includes('light-dark('))
      // A shadow's faint tint reads the same on both backgrounds.
      .filter((d) => d.prop !== '--shadow-sm')
      .map(show)
    expect(oneTheme, `give the dark theme its value: light-dark(light, dark):\n${oneTheme.join('\n')}`).toEqual([])
  })
})
