/**
 * The one IPC router: sender check → zod parse → handler → `{ok,data} | {ok:false,error}`.
 * It never throws across the boundary (Electron's invoke drops error data), and the same router
 * serves the desktop preload and browser mode's HTTP bridge.
 */
import { z } from 'zod'
import { errorMessage } from '../../shared/unwrap'
import { channels, isChannel, type ChannelName, type ChannelOutput, type Channels, type Envelope, type ErrorCode } from '../../shared/ipc-contract'

export type Handler<C extends ChannelName> = (input: z.infer<Channels[C]['input']>) => Promise<ChannelOutput<C>> | ChannelOutput<C>
export type Handlers = { [C in ChannelName]: Handler<C> }

/** A handler error that carries a code the renderer can act on. */
export class RouteError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export interface RouterOptions<S> {
  /** Decides whether a sender (a WebContents frame, or an HTTP request) may call at all. */
  isTrustedSender: (sender: S) => boolean
  log?: (line: string) => void
}

export type Dispatch<S> = (channel: unknown, input: unknown, sender: S) => Promise<Envelope<unknown>>

export function createRouter<S>(handlers: Handlers, opts: RouterOptions<S>): Dispatch<S> {
  return async (channel, rawInput, sender) => {
    if (!opts.isTrustedSender(sender)) return fail('forbidden', 'This sender may not call Retake')
    if (!isChannel(channel)) return fail('not-found', `Unknown channel ${String(channel).slice(0, 80)}`)
    const spec = channels[channel]
    const parsed = spec.input.safeParse(rawInput ?? {})
    if (!parsed.success) return fail('bad-input', `${channel}: ${z.prettifyError(parsed.error)}`)
    try {
      const handler = handlers[channel] as (input: unknown) => unknown
      const data = await handler(parsed.data)
      // Checking the output too keeps a handler bug from reaching the renderer as a malformed value.
      const out = (spec.output as z.ZodType).safeParse(data)
      if (!out.success) {
        opts.log?.(`[ipc] ${channel} produced an invalid result: ${out.error.message}`)
        return fail('internal', `${channel} produced an invalid result`)
      }
      return { ok: true, data: out.data }
    } catch (err) {
      const code: ErrorCode = err instanceof RouteError ? err.code : (err as { code?: unknown }).code === 'bad-input' ? 'bad-input' : 'internal'
      opts.log?.(`[ipc] ${channel} failed: ${(err as Error).stack ?? err}`)
      // A sentence for people: an opencode call's name stays in the log line above.
      return fail(code, errorMessage(err))
    }
  }
}

function fail(code: ErrorCode, message: string): Envelope<never> {
  return { ok: false, error: { code, message } }
}
