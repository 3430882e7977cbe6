/**
 * Which requests to the app's API and opencode proxy its own code made, told by the browser's
 * fetch metadata (Sec-Fetch-Site, Sec-Fetch-Dest; sent by current browsers, never forgeable by a
 * page). The renderer calls these only with fetch and EventSource from its own origin: destination
 * `empty`, site `same-origin`. An `<img>`, `<video>`, `<iframe>`, a link or a typed URL is never
 * one of its calls, and a page of another origin (another port of 127.0.0.1 included, which is the
 * same *site*) never may make one. Absent headers (a non-browser client, an old browser) are left
 * to the other guards: the session cookie, the Origin check, the folder check.
 */

export interface FetchMetadata {
  site?: string | null
  dest?: string | null
}

/** Why this request is not one of the app's own API calls, or null when it may be. */
export function foreignFetchReason(meta: FetchMetadata, opts: { checkSite: boolean }): string | null {
  const site = meta.site ?? null
  const dest = meta.dest ?? null
  if (opts.checkSite && site !== null && site !== 'same-origin') return `a request from another origin (Sec-Fetch-Site: ${site}) is refused`
  if (dest !== null && dest !== 'empty') return `only the app's own calls may use this address, not a page's ${dest} (Sec-Fetch-Dest: ${dest})`
  return null
}

/** Reads the two headers from Node's or the web's header shapes. */
export function fetchMetadataOf(headers: Record<string, string | string[] | undefined> | Headers): FetchMetadata {
  const get = (name: string) => {
    const v = headers instanceof Headers ? headers.get(name) : headers[name]
    return Array.isArray(v) ? v.join(',') : (v ?? null)
  }
  return { site: get('sec-fetch-site'), dest: get('sec-fetch-dest') }
}
