import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * Packages a server on SQLite with no optional service set never uses, so it does not load them
 * at start (every command of the CLI pays for what the app loads): the PostgreSQL and Redis
 * clients, SAML's library and its XML parser. They load when first needed; the tests of each
 * feature show that they work then.
 */
const LAZY = ['pg', 'ioredis', '@node-saml/node-saml', '@xmldom/xmldom'];

it(
  'a server on SQLite with nothing optional configured starts without loading what only PostgreSQL, Redis or SAML need',
  { timeout: 60_000 },
  async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'tests/server/composition/support/loaded-packages.ts', ...LAZY],
      { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' } },
    );
    const answer = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { loaded?: string[] };
    expect(answer.loaded).toEqual([]);
  },
);
