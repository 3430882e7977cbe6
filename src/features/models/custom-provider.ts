/**
 * A provider of the user's own: any server that speaks the OpenAI API at a URL (a local model
 * server, a company gateway). opencode 1.18 takes one as a config entry using its
 * `@ai-sdk/openai-compatible` adapter with `options.baseURL` and the models to offer. It cannot be
 * added from a client: on 1.18.33 the config PATCH (`PATCH /config`) writes `config.json` into the
 * project folder, a file opencode never reads back (measured: the provider list did not change,
 * even after the instance reload), and the global config route is not one the renderer may call.
 * So Retake writes the entry for the user to paste into their opencode config; once the server
 * has it, its key is given here like any other (the auth API, never a config file).
 */

export interface CustomProviderInput {
  id: string
  baseURL: string
  /** Model ids as the server names them, separated by commas or spaces. */
  models: string
}

export interface CustomProvider {
  id: string
  baseURL: string
  models: string[]
}

/** The checked provider, or what is wrong with the form, as a sentence. */
export function checkCustomProvider(input: CustomProviderInput, existing: readonly string[]): CustomProvider | { error: string } {
  const id = input.id.trim()
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(id)) return { error: 'Give the provider a short name: lowercase letters, digits, dots, dashes or underscores (e.g. my-server).' }
  if (existing.includes(id)) return { error: `There is already a provider called ${id}: choose another name.` }
  let url: URL
  try {
    url = new URL(input.baseURL.trim())
  } catch {
    return { error: 'The URL must be a full address such as http://127.0.0.1:8080/v1.' }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: 'The URL must start with http:// or https://.' }
  const models = [...new Set(input.models.split(/[\s,]+/).filter(Boolean))]
  if (models.length === 0) return { error: 'Name at least one model the server offers (its id, e.g. llama-3.1-8b).' }
  return { id, baseURL: url.toString().replace(/\/$/, ''), models }
}

/** The opencode config entry that adds the provider, as JSON to paste into an opencode.json. */
export function customProviderConfig(p: CustomProvider): string {
  const entry = {
    provider: {
      [p.id]: {
        name: p.id,
        npm: '@ai-sdk/openai-compatible',
        options: { baseURL: p.baseURL },
        models: Object.fromEntries(p.models.map((m) => [m, { name: m }])),
      },
    },
  }
  return JSON.stringify(entry, null, 2)
}
