import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { appliedColorScheme, openPublicPage, PUBLIC_PAGES } from './support/pages.js';
import { describePortal } from './support/portal.js';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

const BLOCKING = new Set(['serious', 'critical']);

const describeViolation = (violation: AxeViolation) =>
  [
    `- [${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})`,
    ...violation.nodes
      .slice(0, 5)
      .map(
        (node) => `    ${JSON.stringify(node.target)}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ')}`,
      ),
    ...(violation.nodes.length > 5 ? [`    … and ${violation.nodes.length - 5} more`] : []),
  ].join('\n');

describePortal('accessibility of the public pages (axe-core)', (portal) => {
  for (const target of PUBLIC_PAGES) {
    it(`${target.name} has no serious or critical violation in light or dark mode`, async () => {
      // axe is injected as a script tag, which the portal's strict CSP would (rightly) refuse.
      const page = await portal.newPage({ colorScheme: 'light', bypassCSP: true, reducedMotion: 'reduce' });
      await openPublicPage(portal, page, target);
      await page.addScriptTag({ path: AXE_PATH });
      const blocking: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        // The portal follows the system scheme, so contrast is checked against the dark palette too.
        await page.emulateMedia({ colorScheme: scheme });
        await expect
          .poll(() => appliedColorScheme(page), { message: `${scheme} scheme applied` })
          .toBe(scheme);
        const violations = await page.evaluate<AxeViolation[]>(
          `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)`,
        );
        const serious = violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
        if (violations.length > 0)
          console.info(
            `[a11y] ${target.name} (${scheme}): ${serious.length} serious/critical, ` +
              `${violations.length - serious.length} minor/moderate\n${violations.map(describeViolation).join('\n')}`,
          );
        blocking.push(...serious.map((violation) => `${scheme}: ${describeViolation(violation)}`));
      }
      expect(blocking).toEqual([]);
    });
  }
});
