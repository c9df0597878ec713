/**
 * Just enough Markdown for the documentation checks: the links of a page and the anchors its
 * headings make, as GitHub renders them. Code (fenced blocks and inline spans) is left out first, as
 * a link or heading written there is an example, not a link.
 */

/** The page without its fenced code blocks (their lines kept, empty, so line numbers hold). */
function withoutFences(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return '';
      }
      if (marker) fence = marker;
      return marker ? '' : line;
    })
    .join('\n');
}

/** The page without fenced code blocks and inline code spans. */
export function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/(`+)(?:(?!\1)[\s\S])+?\1/g, '');
}

/** Every link target of the page: inline `[text](target)`, reference definitions, and `<a href>`. */
export function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  return [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? ''),
    ...[...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1] ?? ''),
    ...[...text.matchAll(/<a\s[^>]*href="([^"]+)"/g)].map((match) => match[1] ?? ''),
  ];
}

/** Whether a link leaves the repository (a URL with a scheme, or protocol-relative). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** GitHub's anchor of a heading's text: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
    .replace(/<[^>]+>/g, '') // inline HTML
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a page offers: one per heading (repeats numbered -1, -2 …) and explicit `id`/`name`s. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(markdown).matchAll(/^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug((match[1] ?? '').replaceAll('`', ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of markdown.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) found.add(match[1] ?? '');
  return found;
}
