import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configVariableNames } from '../../src/server/platform/config.js';
import { anchors, isExternal, linkTargets, withoutCode } from './support/markdown.js';

/**
 * The documentation stays true to the repository: every relative link of the README and docs/
 * reaches a file (and the heading it names), every setting the server reads is in the
 * configuration table, and the README stays a page that fits on a screen or two, commands first.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** `docs/api.md: routes.md#x (no such file)` for each relative link that leads nowhere. */
function brokenLinks(page: string): string[] {
  return linkTargets(read(page))
    .filter((target) => !isExternal(target))
    .flatMap((target) => {
      const [pathPart = '', anchor] = target.split('#', 2);
      const path = decodeURIComponent(pathPart);
      const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
      if (!file.startsWith(ROOT) || !existsSync(file)) return [`${page}: ${target} (no such file)`];
      if (anchor === undefined || anchor === '') return [];
      if (statSync(file).isDirectory() || !file.endsWith('.md'))
        return [`${page}: ${target} (an anchor into a file that is not Markdown)`];
      return anchors(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor).toLowerCase())
        ? []
        : [`${page}: ${target} (no heading #${anchor} in ${relative(ROOT, file)})`];
    });
}

describe('The documentation', () => {
  it.each(pages)('%s: every relative link reaches its file and heading', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it('finds broken links and anchors (the check itself)', () => {
    const page =
      '[a](docs/none.md) [b](docs/api.md#no-such-heading) [c](docs/api.md#generating-a-client) `[d](x.md)`';
    const broken = linkTargets(page).filter((target) => {
      const [path = '', anchor] = target.split('#', 2);
      const file = join(ROOT, path);
      return !existsSync(file) || (anchor !== undefined && !anchors(readFileSync(file, 'utf8')).has(anchor));
    });
    expect(broken).toEqual(['docs/none.md', 'docs/api.md#no-such-heading']);
  });

  it('lists every setting the server reads in the configuration table of docs/operating.md, and only those', () => {
    const operating = read('docs/operating.md');
    const section = operating.slice(
      operating.indexOf('## Configuration'),
      operating.indexOf('\n## ', operating.indexOf('## Configuration') + 1),
    );
    // The first cell of each row names one setting, or several joined by " / ".
    const documented = new Set(
      section
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) =>
          [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''),
        ),
    );
    expect(configVariableNames.filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !configVariableNames.includes(name))).toEqual([]);
  });

  it('keeps the README within 250 lines, with the two commands first', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const commands = [...readme.matchAll(/^```sh\n([\s\S]*?)```/gm)].map((match) => match[1]?.trim());
    expect(commands.slice(0, 2)).toEqual(['npm install && npm start', 'npm test']);
    // Nothing but prose before the first command.
    expect(withoutCode(readme.slice(0, readme.indexOf('```sh')))).not.toMatch(/^\|/m);
  });
});
