import type { Page } from 'playwright-core';

/** The controls whose look alone marks them as controls: light buttons and the current navigation item. */
export const TINTED_CONTROLS =
  'button[data-variant="light"], a[data-variant="light"], .mantine-NavLink-root[data-active]';

/*
 * Runs in the page (as source text: these tests compile without the DOM's types). Composites the
 * backgrounds behind an element from the page up, then compares the control's fill and border
 * with that, by WCAG's relative luminance.
 */
const IN_PAGE = `(selector) => {
  const parse = (value) => {
    const parts = (value.match(/[\\d.]+/g) || []).map(Number);
    return [parts[0] || 0, parts[1] || 0, parts[2] || 0, parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const ratio = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const behind = (element) => {
    const layers = [];
    for (let node = element.parentElement; node; node = node.parentElement)
      layers.push(parse(getComputedStyle(node).backgroundColor));
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) if (layer[3] > 0) colour = over(layer, colour);
    return colour;
  };
  const problems = [];
  for (const element of document.querySelectorAll(selector)) {
    const rect = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (rect.width === 0 || rect.height === 0 || style.visibility === 'hidden') continue;
    // WCAG 1.4.11 does not ask it of an inactive control (a disabled button).
    if (element.disabled || element.getAttribute('aria-disabled') === 'true') continue;
    const surround = behind(element);
    const fill = over(parse(style.backgroundColor), surround);
    const border = parseFloat(style.borderTopWidth) >= 1 ? over(parse(style.borderTopColor), surround) : surround;
    const best = Math.max(ratio(fill, surround), ratio(border, surround));
    if (best < 3) {
      const name = (element.getAttribute('aria-label') || element.textContent || '').trim().slice(0, 60);
      problems.push('"' + name + '" (' + element.tagName.toLowerCase() + '): ' + best.toFixed(2) + ':1 against what is behind it');
    }
  }
  return problems;
}`;

/**
 * WCAG 1.4.11 for the tinted controls axe does not judge (its colour-contrast rule is about text):
 * each visible one that is not disabled must stand out from what is behind it by at least 3:1, by
 * its fill or by its border. Returns one line per control that does not, with its ratio.
 */
export async function controlContrastProblems(page: Page, selector = TINTED_CONTROLS): Promise<string[]> {
  return page.evaluate<string[]>(`(${IN_PAGE})(${JSON.stringify(selector)})`);
}
