import { describe, expect, it } from 'vitest';
import { load, lintProject, use } from './lint-project.js';

/**
 * The import rules of eslint.config.js, run by ESLint itself on a small project laid out like ours
 * (made in a temporary folder, so the rules are checked whatever the real files are called today).
 */
const R = 'src/renderer/src';

const files: Record<string, string> = {
  [`${R}/app/store.ts`]: 'export const store = 1;\n',
  [`${R}/lib/http.ts`]: 'export const http = 1;\n',
  [`${R}/components/button.tsx`]: 'export const Button = 1;\n',
  [`${R}/features/auth/index.ts`]: "export { session } from './session';\n",
  [`${R}/features/auth/session.ts`]: 'export const session = 1;\n',
  [`${R}/features/auth/pages/login-page.tsx`]: 'export default 1;\n',
  [`${R}/features/licenses/license-slice.ts`]: 'export const license = 1;\n',
  'src/server/app.ts': 'export const app = 1;\n',
  'src/shared/routes.ts': 'export const routes = 1;\n',
};

const problems = lintProject('import-boundaries', files);

describe('portal layers: app → features → components and lib, never upward', () => {
  it('refuses a component importing a feature', async () => {
    expect(await problems(`${R}/components/probe.ts`, use('../features/auth'))).toEqual([
      expect.stringContaining('components/ and lib/ know no feature'),
    ]);
  });

  it('refuses lib importing app code, also through import()', async () => {
    expect(await problems(`${R}/lib/probe.ts`, load('../app/store'))).toEqual([
      expect.stringContaining('components/ and lib/ know no feature and no app code'),
    ]);
  });

  it('refuses a feature importing app/', async () => {
    expect(await problems(`${R}/features/licenses/probe.ts`, use('../../app/store'))).toEqual([
      expect.stringContaining('A feature does not import app/'),
    ]);
  });

  it("refuses a feature importing another feature's internals, statically or with import()", async () => {
    for (const code of [use('../auth/session'), load('../auth/session'), load('../auth/pages/login-page')])
      expect(await problems(`${R}/features/licenses/probe.ts`, code)).toEqual([
        expect.stringContaining('Another feature is reached through its index.ts only'),
      ]);
  });

  it("lets app/ reach a feature's index.ts and load its pages lazily, but not its internals", async () => {
    expect(await problems(`${R}/app/probe.ts`, use('../features/auth'))).toEqual([]);
    expect(await problems(`${R}/app/probe.ts`, load('../features/auth/pages/login-page'))).toEqual([]);
    expect(await problems(`${R}/app/probe.ts`, use('../features/auth/session'))).toEqual([
      expect.stringContaining('app/ reaches a feature through its index.ts'),
    ]);
  });

  it('allows what the layers permit: a feature its own files, another feature through index.ts, components and lib', async () => {
    const allowed = [
      use('./license-slice'),
      use('../auth'),
      use('../../components/button'),
      use('../../lib/http'),
    ];
    for (const code of allowed) expect(await problems(`${R}/features/licenses/probe.ts`, code)).toEqual([]);
  });
});

describe('programs do not import each other', () => {
  it('refuses a dynamic import from the portal into the server, and from the server into the portal', async () => {
    expect(await problems(`${R}/lib/probe.ts`, load('../../../server/app'))).toEqual([
      expect.stringContaining('This program must not import from src/server'),
    ]);
    expect(await problems('src/server/probe.ts', load('../renderer/src/lib/http'))).toEqual([
      expect.stringContaining('must not import from src/main, src/preload, src/renderer'),
    ]);
  });

  it('allows any program to import shared code', async () => {
    expect(await problems('src/server/probe.ts', use('../shared/routes'))).toEqual([]);
    expect(await problems(`${R}/lib/probe.ts`, load('../../../shared/routes'))).toEqual([]);
  });
});
