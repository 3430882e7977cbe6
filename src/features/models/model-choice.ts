/**
 * Which model a session uses: the user's choice for that session, else the model the session last
 * ran with, else the server's default (config `model`, else the first provider's default).
 */
import type { ModelRef } from '../../../shared/ipc-contract'
import type { Model, Provider, Session } from '../../api/types'

export interface ModelOption {
  ref: ModelRef
  key: string
  providerName: string
  modelName: string
  capabilities?: Model['capabilities']
  /** Context window in tokens, when the server says (the palette shows it). */
  context?: number
}

export const modelKey = (ref: ModelRef) => `${ref.providerID}/${ref.modelID}`

/** Parses "provider/model" (model ids may themselves contain slashes). */
export function parseModelKey(key: string | undefined): ModelRef | undefined {
  if (!key) return undefined
  const i = key.indexOf('/')
  if (i <= 0 || i === key.length - 1) return undefined
  return { providerID: key.slice(0, i), modelID: key.slice(i + 1) }
}

/** Every model of every configured provider, grouped by provider in server order. */
export function modelOptions(providers: Provider[]): ModelOption[] {
  const out: ModelOption[] = []
  for (const p of providers) {
    const models = Object.values(p.models).sort((a, b) => a.name.localeCompare(b.name))
    for (const m of models) {
      const ref = { providerID: p.id, modelID: m.id }
      out.push({ ref, key: modelKey(ref), providerName: p.name || p.id, modelName: m.name || m.id, capabilities: m.capabilities, context: m.limit?.context || undefined })
    }
  }
  return out
}

/** The server's default model. */
export function serverDefaultModel(configModel: string | undefined, providers: Provider[], defaults: Record<string, string>): ModelRef | undefined {
  const fromConfig = parseModelKey(configModel)
  if (fromConfig) return fromConfig
  for (const p of providers) {
    const id = defaults[p.id] ?? Object.keys(p.models)[0]
    if (id) return { providerID: p.id, modelID: id }
  }
  return undefined
}

export interface ResolvedModel {
  ref: ModelRef | undefined
  /** Where it came from: the picker shows "(default)" for the server's choice. */
  source: 'chosen' | 'session' | 'default' | 'none'
}

export function resolveModel(chosen: ModelRef | undefined, session: Session | undefined, serverDefault: ModelRef | undefined): ResolvedModel {
  if (chosen) return { ref: chosen, source: 'chosen' }
  if (session?.model) return { ref: { providerID: session.model.providerID, modelID: session.model.id }, source: 'session' }
  if (serverDefault) return { ref: serverDefault, source: 'default' }
  return { ref: undefined, source: 'none' }
}

/**
 * The model to put in a prompt. Only an explicit choice or the session's own model is sent; for a
 * fresh session the server applies its default itself, which cannot disagree with the server.
 */
export function modelForPrompt(resolved: ResolvedModel): ModelRef | undefined {
  return resolved.source === 'chosen' || resolved.source === 'session' ? resolved.ref : undefined
}
