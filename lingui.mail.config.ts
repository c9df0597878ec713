import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * The mail's message catalogs (issue 34, item 6), apart from the portal's (lingui.config.ts): the
 * server is compiled by tsc and run by tsx, without Lingui's macros, so its messages are
 * `/*i18n*\/` descriptors with stable ids and the English in the code (mail-i18n.ts).
 * `npm run i18n:mail` extracts them and compiles each catalog to a `{locale}.ts` beside it that the
 * server imports; tests/server/platform/mail-languages.test.ts refuses a catalog with a message
 * left untranslated or a compiled file older than its catalog.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'de', 'es', 'hi'],
  fallbackLocales: { default: 'en' },
  orderBy: 'messageId',
  format: formatter({ lineNumbers: false }),
  compileNamespace: 'ts',
  catalogs: [
    {
      path: '<rootDir>/src/server/platform/mail/locales/{locale}',
      include: ['<rootDir>/src/server/'],
      exclude: ['<rootDir>/src/server/platform/mail/locales/**'],
    },
  ],
});
