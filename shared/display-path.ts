// How a path is shown to the user. The checkpoint engine carries bytes of a file name that are not
// UTF-8 as lone surrogates U+DC80–U+DCFF (see core/checkpoints/store/os-names.ts); on screen each
// such byte reads \xNN instead of an unprintable replacement character.
const ESCAPED = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g

export function displayPath(p: string): string {
  return p.replace(ESCAPED, (ch) => `\\x${(ch.charCodeAt(0) - 0xdc00).toString(16).padStart(2, '0')}`)
}

/**
 * A checkpointed file as shown: relative to the project, or with its folder when it is in an extra
 * folder (Settings), so a change there is seen as one and two `notes.txt` are told apart.
 */
export function displayFilePath(x: { root: string; path: string }, projectRoot: string | undefined): string {
  const shown = displayPath(x.path)
  return x.root === projectRoot || x.root === '' || projectRoot === undefined ? shown : `${x.root.replace(/\/+$/, '')}/${shown}`
}
