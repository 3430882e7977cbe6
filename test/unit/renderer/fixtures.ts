/** Small builders for opencode shapes used by the renderer tests. */
import type { AssistantMessage, MessageWithParts, OpencodeEvent, Part, Session, UserMessage } from '../../../src/api/types'

export const SID = 'ses_test000000000000000000'

export function user(id: string, text = 'hello', partId = `prt_${id}`): MessageWithParts {
  const info: UserMessage = {
    id,
    sessionID: SID,
    role: 'user',
    time: { created: 1 },
    agent: 'build',
    model: { providerID: 'local', modelID: 'echo' },
  }
  return { info, parts: [{ id: partId, sessionID: SID, messageID: id, type: 'text', text }] }
}

export function assistant(id: string, parentID: string, extra: Partial<AssistantMessage> = {}, parts: Part[] = []): MessageWithParts {
  const info: AssistantMessage = {
    id,
    sessionID: SID,
    role: 'assistant',
    parentID,
    time: { created: 2, completed: 3 },
    modelID: 'echo',
    providerID: 'local',
    mode: 'build',
    agent: 'build',
    path: { cwd: '/p', root: '/p' },
    cost: 0,
    tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    ...extra,
  }
  return { info, parts }
}

export function session(id: string, updated: number, extra: Partial<Session> = {}): Session {
  return {
    id,
    slug: id,
    projectID: 'p',
    directory: '/p',
    title: `title ${id}`,
    version: '1.18.33',
    time: { created: updated, updated },
    ...extra,
  }
}

export const ev = (type: string, properties: Record<string, unknown>) => ({ id: 'evt_1', type, properties }) as unknown as OpencodeEvent

export const apiError = (message: string, statusCode?: number) => ({
  name: 'APIError' as const,
  data: { message, statusCode, isRetryable: false },
})

/** A `config.providers` answer with one provider, "local", whose default model is the first given. */
export function localProviders(models: Record<string, { name: string; capabilities: Record<string, unknown> }>) {
  return {
    providers: [
      {
        id: 'local',
        name: 'Local',
        source: 'config',
        env: [],
        options: {},
        models: Object.fromEntries(Object.entries(models).map(([id, m]) => [id, { id, ...m }])),
      },
    ],
    default: { local: Object.keys(models)[0]! },
  }
}
