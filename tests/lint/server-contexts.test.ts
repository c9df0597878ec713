import { describe, expect, it } from 'vitest';
import { lintProject, use } from './lint-project.js';
import { measure, newCycles, type ServerFile } from '../../scripts/server-structure.js';

/**
 * The server's context rules of eslint.config.js, run by ESLint itself on a small server laid out
 * like ours (in a temporary folder, with its own tsconfig for the `.js` → `.ts` imports), and the
 * cycle check of `npm run lint` on made-up files.
 */
const S = 'src/server';

const files: Record<string, string> = {
  'tsconfig.server.json': JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowJs: false },
    include: ['src/server/**/*'],
  }),
  [`${S}/app.ts`]: 'export const app = 1;\n',
  [`${S}/platform/clock.ts`]: 'export const clock = 1;\n',
  [`${S}/platform/mail/outbox-repository.ts`]: 'export const queueMail = 1;\n',
  [`${S}/catalogue/plans/repository.ts`]: 'export const findPlan = 1;\n',
  [`${S}/catalogue/plans/service.ts`]: 'export const plans = 1;\n',
  [`${S}/licensing/licenses/repository.ts`]: 'export const findLicense = 1;\n',
  [`${S}/licensing/licenses/service.ts`]: 'export const licenses = 1;\n',
  [`${S}/licensing/index.ts`]: "export { licenses as x } from './licenses/service.js';\n",
  [`${S}/identity/plugins/authenticate.ts`]: 'export const x = 1;\n',
  [`${S}/identity/index.ts`]: "export { x } from './plugins/authenticate.js';\n",
  [`${S}/billing/payments/service.ts`]: 'export const payments = 1;\n',
};

const problems = lintProject('server-contexts', files);

describe('server contexts: one direction, reached through index.ts, and each keeps its repositories', () => {
  it("refuses a context importing another context's repository, even one it may use", async () => {
    expect(
      await problems(`${S}/licensing/licenses/probe.ts`, use('../../catalogue/plans/repository.js')),
    ).toEqual([expect.stringContaining("A context's repositories and tables are its own")]);
  });

  it('refuses a context importing upward: catalogue into licensing, platform into billing', async () => {
    expect(
      await problems(`${S}/catalogue/plans/probe.ts`, use('../../licensing/licenses/service.js')),
    ).toEqual([
      expect.stringContaining('The catalogue context may use platform: this import runs upward or sideways'),
    ]);
    expect(await problems(`${S}/platform/probe.ts`, use('../billing/payments/service.js'))).toEqual([
      expect.stringContaining('The platform context may use nothing above it'),
    ]);
  });

  it("refuses a context importing another context's file other than its index.ts, and takes the same through it", async () => {
    expect(
      await problems(`${S}/licensing/licenses/probe.ts`, use('../../identity/plugins/authenticate.js')),
    ).toEqual([expect.stringContaining('Another context is reached through its index.ts')]);
    expect(await problems(`${S}/licensing/licenses/probe.ts`, use('../../identity/index.js'))).toEqual([]);
  });

  it('refuses a context importing the composition at the server root', async () => {
    expect(await problems(`${S}/billing/payments/probe.ts`, use('../../app.js'))).toEqual([
      expect.stringContaining('A context imports none of the files at the server root'),
    ]);
  });

  it("allows what the direction permits: its own repository, a context below through its index.ts, any of the platform's files, and the root everything", async () => {
    expect(await problems(`${S}/licensing/licenses/probe.ts`, use('./repository.js'))).toEqual([]);
    expect(await problems(`${S}/billing/payments/probe.ts`, use('../../licensing/index.js'))).toEqual([]);
    expect(await problems(`${S}/catalogue/plans/probe.ts`, use('../../platform/clock.js'))).toEqual([]);
    expect(await problems(`${S}/probe.ts`, use('./billing/payments/service.js'))).toEqual([]);
  });
});

describe('cycles between the parts of the server', () => {
  const file = (path: string, ...imports: string[]): ServerFile => ({
    path,
    text: imports.map((source) => `import { x } from '${source}';\n`).join(''),
  });

  it('finds a new cycle between two contexts, and lets the known one be', () => {
    const structure = measure([
      file('billing/a.ts', '../licensing/b.js'),
      file('licensing/b.ts', '../support/c.js'),
      file('support/c.ts', '../billing/a.js'),
      file('admin/d.ts', '../billing/a.js'),
    ]);
    expect(structure.cycles).toEqual([['billing', 'licensing', 'support']]);
    expect(newCycles(structure, [])).toEqual([['billing', 'licensing', 'support']]);
    expect(newCycles(structure, [['billing', 'licensing', 'support', 'platform']])).toEqual([]);
    // A part joining a known cycle makes it a new one.
    expect(newCycles(structure, [['billing', 'licensing']])).toEqual([['billing', 'licensing', 'support']]);
  });

  it('counts imports of another part’s repository and queries outside repositories', () => {
    const structure = measure([
      file('billing/a.ts', '../licensing/repository.js', './repository.js'),
      file('billing/repository.ts'),
      file('licensing/repository.ts'),
      { path: 'licensing/service.ts', text: "db.selectFrom('licenses');\n" },
    ]);
    expect(structure.foreignRepositoryImports).toEqual(['billing/a.ts -> licensing/repository.ts']);
    expect(structure.queriesOutsideRepositories).toEqual(['licensing/service.ts']);
  });

  it('counts writes into a table another context owns, or nobody does, and lets the owner write', () => {
    const structure = measure([
      {
        path: 'billing/repository.ts',
        text: "trx.updateTable('subscriptions');\ntrx.updateTable('users');\n",
      },
      {
        path: 'licensing/repository.ts',
        text: "db.insertInto(\n  'licenses',\n);\ndb.deleteFrom('gadgets');\n",
      },
      { path: 'platform/db/migrations/001.ts', text: "db.insertInto('users');\n" },
    ]);
    expect(structure.foreignWrites).toEqual([
      'billing/repository.ts -> users (identity)',
      'licensing/repository.ts -> gadgets (no owner: add it to TABLE_OWNERS)',
    ]);
  });
});
