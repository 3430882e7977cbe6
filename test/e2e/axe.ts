/**
 * The automated accessibility check (axe-core) on the page as it is now. axe is injected through
 * the DevTools protocol (page.evaluate), which the app's CSP does not apply to: the app itself never
 * loads it. Returns the serious and critical violations, each as `rule: target (summary)`.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export async function seriousViolations(page: Page, opts: { rules?: string[] } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const results = await page.evaluate(async (rules) => {
    const axe = (
      window as unknown as {
        axe: {
          run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }>
        }
      }
    ).axe
    return axe.run(document, rules ? { runOnly: { type: 'rule', values: rules } } : { resultTypes: ['violations'] })
  }, opts.rules ?? null)
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${(n.failureSummary ?? '').split('\n').slice(1).join(' ').trim()})`))
}
