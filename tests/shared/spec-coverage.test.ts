import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TABLE = readFileSync(resolve(ROOT, 'docs/spec-coverage.md'), 'utf8');

interface Row {
  line: number;
  files: string[];
  names: string[];
}

/** The table rows that name tests: their test files (relative to tests/) and test names. */
const rows: Row[] = TABLE.split('\n').flatMap((text, index) => {
  if (!text.startsWith('|') || !text.includes('.test.')) return [];
  const cells = text
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
  const cellParts = (cell: string) =>
    cell
      .split('<br>')
      .map((part) => part.trim())
      .filter(Boolean);
  const files = cells.flatMap(cellParts).filter((part) => /\.test\.tsx?$/.test(part));
  return [{ line: index + 1, files, names: cellParts(cells.at(-1) ?? '') }];
});

/**
 * What of a name must stand in its files as written: a `describe › test` name's test; of a template
 * (`it.each`, a loop) its longest literal stretch, or, when that is too short to recognise (`%s is
 * %j`), each of the cases the row gives after the dash.
 */
function searchableTexts(name: string): string[] {
  const test = name.replace(/\\\|/g, '|').split(' › ').at(-1) ?? name;
  if (!test.startsWith('`')) return [test.trim()];
  const [template = '', cases = ''] = test.slice(1).split(/`(?: — )?/);
  const literal = template
    .split(/\$\{[^}]*\}|\$[a-z]\w*|%[sdjio#]/)
    .reduce((longest, fragment) => (fragment.length > longest.length ? fragment : longest), '')
    .trim();
  if (literal.length >= 8) return [literal];
  return cases
    .split(', ')
    .map((each) => each.trim())
    .filter(Boolean);
}

describe('docs/spec-coverage.md names tests that exist', () => {
  it('has rows to check', () => {
    expect(rows.length).toBeGreaterThan(200);
  });

  it('every test file a row names exists', () => {
    const missing = rows.flatMap(({ line, files }) =>
      files
        .filter((file) => !existsSync(resolve(ROOT, 'tests', file)))
        .map((file) => `line ${line}: ${file}`),
    );
    expect(missing).toEqual([]);
  });

  it('every test name a row gives is written in one of its files', () => {
    const missing = rows.flatMap(({ line, files, names }) => {
      const sources = files
        .map((file) => resolve(ROOT, 'tests', file))
        .filter((path) => existsSync(path))
        .map((path) => readFileSync(path, 'utf8'))
        .join('\n');
      return names
        .filter((name) => {
          const texts = searchableTexts(name);
          return texts.length === 0 || texts.some((text) => !sources.includes(text));
        })
        .map((name) => `line ${line}: ${name}`);
    });
    expect(missing).toEqual([]);
  });
});
