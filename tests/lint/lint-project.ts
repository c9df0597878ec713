import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll } from 'vitest';

const CONFIG = resolve(__dirname, '../../eslint.config.js');

/**
 * The rules of eslint.config.js, run by ESLint itself on a small project laid out like ours, made
 * in a temporary folder for the file's tests (so the rules are checked whatever the real files are
 * called today). Answers what ESLint reports for code written in a file of it: rule id and message.
 */
export function lintProject(name: string, files: Record<string, string>) {
  let root: string;
  let eslint: ESLint;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), `${name}-`));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    eslint = new ESLint({
      cwd: root,
      overrideConfigFile: CONFIG,
      overrideConfig: { settings: { 'boundaries/root-path': root } },
    });
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  return async function problems(path: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(root, path) });
    return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
  };
}

/** A file that imports `source` and uses what it imports. */
export const use = (source: string) => `import { x } from '${source}';\nexport const y = x;\n`;
/** A file that loads `source` with `import()`. */
export const load = (source: string) => `export const y = () => import('${source}');\n`;
