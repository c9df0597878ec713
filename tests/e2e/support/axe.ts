import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; html?: string; failureSummary?: string }[];
}

/** The impacts the "Must show" of issue 6 forbids. */
const BLOCKING = new Set(['serious', 'critical']);

export const describeViolation = (violation: AxeViolation) =>
  [
    `- [${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})`,
    ...violation.nodes
      .slice(0, 5)
      .map(
        (node) =>
          `    ${JSON.stringify(node.target)} ${(node.html ?? '').slice(0, 160)}\n      ${(node.failureSummary ?? '').replace(/\s+/g, ' ')}`,
      ),
    ...(violation.nodes.length > 5 ? [`    … and ${violation.nodes.length - 5} more`] : []),
  ].join('\n');

/**
 * Puts axe-core into every page of the context before the portal's scripts run. An init script
 * is not subject to the portal's strict CSP (a script tag would be refused), and it survives
 * navigations, so one context can check many screens.
 */
export async function installAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: await readFile(AXE_PATH, 'utf8') });
}

/**
 * Puts axe-core into the page as it is now, unless it is there already (a client-side navigation
 * keeps it; a load does not). Evaluated by the browser's tools, which the portal's CSP does not
 * govern; unlike installAxe, no other page load of the context pays for it.
 */
export async function ensureAxe(page: Page): Promise<void> {
  if (await page.evaluate<boolean>("typeof axe !== 'undefined'")) return;
  await page.evaluate(await readFile(AXE_PATH, 'utf8'));
}

/** The rules whose outcome depends on the colours, the only ones a change of colour scheme can change. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Runs axe on the whole page (or only `rules`); returns the serious and critical violations
 * (all of them are logged).
 */
export async function blockingViolations(
  page: Page,
  label: string,
  rules?: readonly string[],
): Promise<AxeViolation[]> {
  const options = JSON.stringify({ resultTypes: ['violations'], ...(rules ? { runOnly: rules } : {}) });
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, ${options}).then((result) => result.violations)`,
  );
  const blocking = violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
  if (violations.length > 0)
    console.info(
      `[a11y] ${label}: ${blocking.length} serious/critical, ${violations.length - blocking.length} minor/moderate\n` +
        violations.map(describeViolation).join('\n'),
    );
  return blocking;
}

/** The text of undecided contrast outside the charts, as lines; `result` is in the page. */
const UNDECIDED_OUTSIDE_CHARTS = `result.incomplete
  .filter((rule) => rule.id === 'color-contrast')
  .flatMap((rule) =>
    rule.nodes
      .filter((node) => {
        const element = document.querySelector(node.target.join(' '));
        return !element || !element.closest('svg, [class*="mantine-"][class*="Chart"]');
      })
      .map((node) => JSON.stringify(node.target) + ' ' + (node.failureSummary || '').replace(/\\s+/g, ' ')),
  )`;

/**
 * The colour rules in one axe run (what a change of colour scheme can change): the serious and
 * critical violations (all logged, as blockingViolations does), and the text whose contrast axe
 * could not decide (it reports it as "incomplete", never as a violation: text over a picture or an
 * unknown background). None of that may be left outside the charts (axe cannot judge text inside
 * or beside an SVG drawing), or a regression there would pass unseen.
 */
export async function colourRuleProblems(
  page: Page,
  label: string,
): Promise<{ blocking: AxeViolation[]; undecided: string[] }> {
  const options = JSON.stringify({ runOnly: COLOUR_RULES, resultTypes: ['violations', 'incomplete'] });
  const { violations, undecided } = await page.evaluate<{ violations: AxeViolation[]; undecided: string[] }>(
    `axe.run(document, ${options}).then((result) => ({ violations: result.violations, undecided: ${UNDECIDED_OUTSIDE_CHARTS} }))`,
  );
  const blocking = violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
  if (violations.length > 0)
    console.info(
      `[a11y] ${label}: ${blocking.length} serious/critical, ${violations.length - blocking.length} minor/moderate\n` +
        violations.map(describeViolation).join('\n'),
    );
  return { blocking, undecided };
}
