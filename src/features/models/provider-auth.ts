/**
 * What the provider dialog needs to know about opencode's auth methods (`GET /provider/auth`), kept
 * apart from React so each rule is tested on its own. Shapes are opencode 1.18.33's (SDK v2 types).
 */
import type { ProviderAuthAuthorization, ProviderAuthMethod } from '@opencode-ai/sdk/v2/client'
import { ApiError, describeBody } from '../../../shared/unwrap'

export type { ProviderAuthAuthorization, ProviderAuthMethod }
export type AuthPrompt = NonNullable<ProviderAuthMethod['prompts']>[number]

/**
 * The methods a provider offers. opencode reports only providers that have an auth plugin; every
 * other provider takes a plain API key (that is what `auth.set` stores), so that is its one method.
 * The index of each method is what authorize/callback take, so the order is the server's.
 */
export function methodsFor(providerID: string, all: Record<string, ProviderAuthMethod[]> | undefined): ProviderAuthMethod[] {
  const listed = all?.[providerID]
  return listed && listed.length > 0 ? listed : [{ type: 'api', label: 'API key' }]
}

/** The prompts to show now: a prompt with `when` appears only once the answer it depends on matches. */
export function visiblePrompts(prompts: AuthPrompt[] | undefined, values: Record<string, string>): AuthPrompt[] {
  return (prompts ?? []).filter((p) => {
    if (!p.when) return true
    const v = values[p.when.key]
    if (v === undefined || v === '') return false
    return p.when.op === 'eq' ? v === p.when.value : v !== p.when.value
  })
}

/**
 * The answers to send: only visible prompts, trimmed. A select starts at its first option (what the
 * user sees selected); a text prompt whose message says "optional" may stay empty and is left out.
 */
export function promptAnswers(prompts: AuthPrompt[] | undefined, values: Record<string, string>): { ok: true; inputs: Record<string, string> } | { ok: false; missing: string } {
  const inputs: Record<string, string> = {}
  const withDefaults = withSelectDefaults(prompts, values)
  for (const p of visiblePrompts(prompts, withDefaults)) {
    const v = (withDefaults[p.key] ?? '').trim()
    if (v) inputs[p.key] = v
    else if (!/optional/i.test(p.message)) return { ok: false, missing: p.message }
  }
  return { ok: true, inputs }
}

/** Values with each select prompt's first option filled in when the user has not chosen yet. */
export function withSelectDefaults(prompts: AuthPrompt[] | undefined, values: Record<string, string>): Record<string, string> {
  const out = { ...values }
  for (const p of prompts ?? []) if (p.type === 'select' && out[p.key] === undefined && p.options[0]) out[p.key] = p.options[0].value
  return out
}

/**
 * A device code in the instructions ("Enter code: ABCD-1234"): providers that sign in with a device
 * code put it there, and the user has to type it on the provider's page, so it gets a copy button.
 */
export function deviceCode(instructions: string | undefined): string | null {
  return /\b[A-Z0-9]{4}-[A-Z0-9]{4,5}\b/.exec(instructions ?? '')?.[0] ?? null
}

/** An authorize answer is usable only with an http(s) URL and a flow Retake knows. */
export function checkAuthorization(data: unknown): ProviderAuthAuthorization {
  const a = data as Partial<ProviderAuthAuthorization> | null | undefined
  let url: URL | null = null
  try {
    url = a?.url ? new URL(a.url) : null
  } catch {
    url = null
  }
  if (!a || !url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new Error('The opencode server gave no sign-in address for this method.')
  }
  if (a.method !== 'auto' && a.method !== 'code') throw new Error(`The opencode server asked for a sign-in flow Retake does not know (${String(a.method)}).`)
  return { url: url.href, method: a.method, instructions: typeof a.instructions === 'string' ? a.instructions : '' }
}

const AUTH_ERRORS: Record<string, string> = {
  ProviderAuthOauthMissing: 'the server has no sign-in in progress for this provider (it may have restarted): start again',
  ProviderAuthOauthCodeMissing: 'the code is missing: paste the code the provider showed you',
  ProviderAuthOauthCallbackFailed: 'the provider did not accept the sign-in (a wrong or expired code?)',
  ProviderAuthValidationFailed: 'the provider did not accept what was entered',
}

/**
 * A failed step in plain words. opencode answers a provider it cannot reach with a bare HTTP 500
 * ("Unexpected server error"), so that case says what is most likely and what to try.
 */
export function signInErrorMessage(step: 'start' | 'finish', providerName: string, err: unknown): string {
  const what = step === 'start' ? `Signing in to ${providerName} could not start` : `Signing in to ${providerName} did not finish`
  if (err instanceof ApiError) {
    const body = err.body as { name?: unknown } | undefined
    const known = typeof body?.name === 'string' ? AUTH_ERRORS[body.name] : undefined
    if (known) return `${what}: ${known}.`
    const detail = describeBody(err.body)
    if (err.status === undefined) return `${what}: the opencode server did not answer. Check that it is running (Settings), then try again.`
    if (err.status >= 500) {
      return `${what}: the opencode server failed (HTTP ${err.status}${detail ? `: ${detail}` : ''}). It talks to ${providerName} for this, so a missing internet connection is the likely cause; check it and try again.`
    }
    return `${what}: HTTP ${err.status}${detail ? `: ${detail}` : ''}.`
  }
  return `${what}: ${err instanceof Error ? err.message : describeBody(err) || 'unknown error'}`
}
