// axe.mjs — runs axe-core (the npm devDependency) inside a page of the
// browser tests and returns its violations. Not a test file itself.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './support.mjs';

const AXE_SOURCE = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/**
 * axe-core's violations on `page` now, WCAG 2.x A and AA plus best
 * practices, as [{id, impact, help, nodes: [target, …]}]. The source is
 * evaluated through the test driver, so the page's CSP (no inline script)
 * stays as it is.
 */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1] ?? ''}`.slice(0, 200)),
    }));
  });
}

/** The violations whose impact is serious or critical. */
export function severe(violations) {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
