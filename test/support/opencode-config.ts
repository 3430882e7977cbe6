/**
 * opencode configuration and environment for tests that run the REAL opencode server against the
 * fake LLM (test/support/fake-llm.ts). Everything here exists to keep the server offline, fast and
 * isolated from the developer's own opencode setup.
 */
import { join } from 'node:path'
import type { Config } from '@opencode-ai/sdk/v2'

export interface OpencodeConfigInput {
  /** The fake's OpenAI-compatible base URL (`FakeLlm.baseUrl`). */
  fakeBaseUrl: string
  /** The fake's Anthropic base URL (`FakeLlm.anthropicBaseUrl`); defaults to `<fake origin>/anthropic/v1`. */
  anthropicBaseUrl?: string
}

const LIMIT = { context: 128_000, output: 8_192 }
const MULTIMODAL = {
  attachment: true,
  modalities: { input: ['text', 'image', 'pdf'] as Array<'text' | 'image' | 'pdf'>, output: ['text'] as Array<'text'> },
  limit: LIMIT,
}

/** The opencode config object (write it to a file for OPENCODE_CONFIG, or JSON it into OPENCODE_CONFIG_CONTENT). */
export function makeOpencodeConfig(input: OpencodeConfigInput): Config {
  const anthropicBaseUrl = input.anthropicBaseUrl ?? input.fakeBaseUrl.replace(/\/v1\/?$/, '') + '/anthropic/v1'
  return {
    $schema: 'https://opencode.ai/config.json',
    model: 'fake/echo',
    // Title generation goes to the fake too; the fake recognises and answers it separately.
    small_model: 'fake/echo',
    autoupdate: false,
    share: 'disabled',
    // Both default to off on 1.18.33; explicit so a changed default cannot start language servers.
    lsp: false,
    formatter: false,
    // Only our providers: no models.dev catalogue entries, no env-var key discovery for others.
    enabled_providers: ['fake', 'anth'],
    provider: {
      fake: {
        name: 'Fake LLM',
        npm: '@ai-sdk/openai-compatible',
        options: { baseURL: input.fakeBaseUrl, apiKey: 'fake-key' },
        models: {
          echo: { name: 'Echo', ...MULTIMODAL },
          'echo-2': { name: 'Echo 2', ...MULTIMODAL },
          // No attachment/modalities: opencode replaces images and PDFs with an error text.
          'echo-noimg': { name: 'Echo (text only)', limit: LIMIT },
        },
      },
      anth: {
        name: 'Fake Anthropic',
        npm: '@ai-sdk/anthropic',
        options: { baseURL: anthropicBaseUrl, apiKey: 'fake-key' },
        models: { 'claude-fake': { name: 'Claude Fake', ...MULTIMODAL } },
      },
    },
  }
}

/**
 * The switches that keep a test's opencode server offline and quick: npm pointed at a closed port
 * (opencode's background `npm install @opencode-ai/plugin` fails fast instead of hitting the
 * network), and the OPENCODE_DISABLE_* switches that avoid network and background work. opencode's
 * internal plugins are auth helpers for hosted providers (Copilot, Codex, …); the fake providers use
 * plain API keys, and skipping them made the first prompt ~40% faster on a loaded 2-core VM. Pass
 * `defaultPlugins: true` for a test that needs production start-up.
 */
export function offlineOpencodeEnv(opts: { defaultPlugins?: boolean } = {}): Record<string, string> {
  const env: Record<string, string> = {
    // Port 9 (discard) on loopback: nothing listens, so npm fails at once.
    npm_config_registry: 'http://127.0.0.1:9/',
    NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/',
    npm_config_offline: 'true',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
    OPENCODE_DISABLE_TERMINAL_TITLE: '1',
  }
  if (!opts.defaultPlugins) env.OPENCODE_DISABLE_DEFAULT_PLUGINS = '1'
  return env
}

/**
 * Environment for an isolated opencode server: its own HOME and XDG dirs under `rootDir` (so the
 * developer's config, auth and database are never read or written), plus the offline switches.
 */
export function isolatedOpencodeEnv(rootDir: string, opts: { defaultPlugins?: boolean } = {}): Record<string, string> {
  return {
    HOME: join(rootDir, 'home'),
    XDG_CONFIG_HOME: join(rootDir, 'config'),
    XDG_DATA_HOME: join(rootDir, 'data'),
    XDG_CACHE_HOME: join(rootDir, 'cache'),
    XDG_STATE_HOME: join(rootDir, 'state'),
    ...offlineOpencodeEnv(opts),
  }
}
