/**
 * The one way Retake reads an SDK result. The v2 SDK never throws: it resolves `{data, error,
 * response}` for HTTP errors and network failures alike, so every call site goes through here and a
 * failure becomes a thrown `ApiError` that React Query (and people) can see.
 */

/** A failed opencode call: the label says which call, status and body say what the server answered. */
export class ApiError extends Error {
  constructor(
    readonly label: string,
    readonly status: number | undefined,
    readonly body: unknown,
    message: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

type SdkResult<T> = { data?: T; error?: unknown; response?: Response } | undefined | null

/** The human part of an opencode error body (shapes: {name,data:{message}}, {message}, text, {}). */
export function describeBody(body: unknown): string {
  if (body === undefined || body === null) return ''
  if (typeof body === 'string') return body
  if (body instanceof Error) return body.message
  if (typeof body === 'object') {
    const o = body as { data?: { message?: unknown }; message?: unknown; name?: unknown; _tag?: unknown }
    if (typeof o.data?.message === 'string') return o.data.message
    if (typeof o.message === 'string') return o.message
    if (typeof o.name === 'string') return o.name
    if (typeof o._tag === 'string') return o._tag
    const json = JSON.stringify(body)
    return json === '{}' ? '' : json
  }
  return String(body)
}

/** Returns `data`, or throws an ApiError carrying the HTTP status and the parsed body. */
export function unwrap<T>(label: string, result: SdkResult<T>): T {
  const response = result?.response
  if (!result || result.error !== undefined || !response || !response.ok) {
    const status = response?.status
    const detail = describeBody(result?.error)
    const head = status === undefined ? `${label}: no response from the server` : `${label}: HTTP ${status}`
    throw new ApiError(label, status, result?.error, detail ? `${head}: ${detail}` : head)
  }
  return result.data as T
}

/**
 * A short message for any thrown value, for inline error displays: a sentence for people. A failed
 * opencode call says what the server did (the call's name, e.g. `session.promptAsync`, stays in
 * the error's own message for logs), then what it said, if anything.
 */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return apiErrorSentence(err.status, describeBody(err.body))
  if (err instanceof PromptFailedError) return `The turn failed: ${describeBody(err.error) || err.error.name}`
  if (err instanceof Error) return err.message || 'Unexpected error'
  return describeBody(err) || 'Unknown error'
}

/** What an HTTP status (none: no answer at all) means for the person who asked. */
export function apiErrorSentence(status: number | undefined, detail: string): string {
  const said = detail ? `: ${detail}` : ''
  if (status === undefined) return 'The server is not answering'
  if (status >= 500) return `The server failed (HTTP ${status})${said}`
  if (status === 401 || status === 403) return `The server refused this (HTTP ${status})${said}`
  if (status === 404) return detail || 'The server no longer has this (HTTP 404)'
  if (status === 409) return detail ? `The server could not do this now: ${detail}` : 'The server could not do this now (HTTP 409)'
  return `The server did not accept this (HTTP ${status})${said}`
}

/** What a failed turn looks like when `session.prompt` still answered HTTP 200. */
export class PromptFailedError extends Error {
  constructor(
    readonly error: { name: string; data?: unknown },
    readonly info: unknown,
  ) {
    super(`session.prompt: the turn failed: ${error.name}: ${describeBody(error) || 'no message'}`)
    this.name = 'PromptFailedError'
  }
}

/**
 * For the blocking `session.prompt`: unwraps the HTTP result, then checks what HTTP cannot say —
 * a failed turn comes back 200 with `info.error`, and when prompts queue up both calls resolve with
 * the LAST turn's message, so `info.parentID` must be the message this prompt created.
 */
export function unwrapPrompt<T extends { info: { error?: { name: string; data?: unknown }; parentID?: string } }>(result: SdkResult<T>, expectedParentID?: string): T {
  const data = unwrap('session.prompt', result)
  if (data.info.error) throw new PromptFailedError(data.info.error, data.info)
  if (expectedParentID !== undefined && data.info.parentID !== expectedParentID) {
    throw new Error(`session.prompt: answered ${data.info.parentID ?? 'no parent'}, expected a reply to ${expectedParentID}`)
  }
  return data
}
