/**
 * Makes a page the build rendered ahead of time (scripts/prerender-public-pages.ts) paint from its
 * HTML alone, with nothing downloaded on the way to its first paint:
 *
 * - Its stylesheets are inlined where they were linked, in the same order, so the cascade is the
 *   same. Each leaves a disabled `<link rel="stylesheet">` behind: the browser fetches nothing for
 *   it, but Vite's chunk loader, which links a lazy chunk's styles unless a stylesheet link to them
 *   is in the document already, takes it as loaded and does not add the same rules a second time.
 * - Its scripts (the entry and the screen's chunks, as Vite wrote them) move into a template that
 *   the page's boot script puts in the document once the page has painted
 *   (src/shared/prerendered-page.ts): the page needs them to respond, not to paint, and they no
 *   longer share the connection with it before it has. Lighthouse's simulation counts every file
 *   that arrived before the largest paint as needed for it, whatever its priority.
 */

/** A stylesheet or style preload as Vite writes them: `<link rel="…" crossorigin href="/assets/….css">`. */
const STYLE_LINK = /<link rel="(?:stylesheet|preload" as="style)" crossorigin href="\/([^"]+\.css)">/g;

/** The entry and the chunks' preloads as Vite writes them, each on a line of its own. */
const SCRIPT_TAG =
  /\n[ \t]*(<script type="module" crossorigin src="[^"]+"><\/script>|<link rel="modulepreload" crossorigin href="[^"]+">)/g;

/**
 * `html` with its stylesheets inlined (see the file's comment). `styleOf` gives a stylesheet's text
 * by its path in the build (`assets/x.css`).
 */
export function inlineStylesheets(html: string, styleOf: (file: string) => string): string {
  return html.replace(STYLE_LINK, (_link, file: string) => {
    const css = styleOf(file);
    // The rules are written into the HTML as they are; this text would end the element early.
    if (/<\/style/i.test(css)) throw new Error(`${file} cannot be inlined: it contains "</style"`);
    return `<style>${css}</style><link rel="stylesheet" crossorigin href="/${file}" disabled>`;
  });
}

/** `html` without its module scripts and preloads, and those elements, in their order. */
export function takeScripts(html: string): { html: string; scripts: string[] } {
  const scripts = [...html.matchAll(SCRIPT_TAG)].map((match) => match[1] ?? '');
  if (!scripts.some((tag) => tag.startsWith('<script')))
    throw new Error('the page has no module script to load after its first paint');
  return { html: html.replace(SCRIPT_TAG, ''), scripts };
}
