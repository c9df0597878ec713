import { configDefaults, defineConfig } from 'vitest/config';
import { portalLanguages } from './scripts/vite-lingui.js';

/** The desktop suites that reach the OS keychain (see the keychain project). */
const KEYCHAIN_SUITES = ['tests/main/**/*.test.ts', 'tests/e2e/desktop-*.test.ts'];

export default defineConfig({
  // The portal's screens use Lingui's macros and import its catalogs, as in the build.
  plugins: [...portalLanguages({ failOnMissing: true })],
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A poll waits for a condition; one second is too short a ceiling on a busy machine.
    expect: { poll: { timeout: 10_000 } },
    // Suites that start servers and hash passwords compete for two cores; two at a time is enough.
    maxWorkers: 2,
    reporters: ['default', './tests/support/summary-reporter.ts', './tests/support/stall-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'tests/renderer/**', ...KEYCHAIN_SUITES],
          environment: 'node',
          // Migrated databases (SQLite, and PostgreSQL with TEST_POSTGRES_URL) the test servers copy.
          globalSetup: ['tests/support/database-templates-setup.ts'],
          // A worker loads the server's modules once for all the files it runs, not once a file
          // (seconds each): every suite builds its own app on its own database and closes it, and
          // what modules keep between files is caches.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Each of these starts a D-Bus session with its own gnome-keyring, and keytar stays
          // connected to the first bus its process used: one process per file. Their test servers
          // migrate their own databases (the templates belong to the node project's run).
          name: 'keychain',
          include: KEYCHAIN_SUITES,
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'renderer',
          include: ['tests/renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          environmentOptions: { jsdom: { url: 'http://portal.test/' } },
          setupFiles: ['tests/renderer/setup.ts'],
          // The real server's OpenAPI document, against which the fake API's answers are checked.
          globalSetup: ['tests/support/api-document-setup.ts'],
        },
      },
    ],
  },
});
