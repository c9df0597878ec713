import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * The portal's message catalogs (issue 34, languages): English is the source, written in the code
 * through Lingui's macros and never kept in a catalog; German, Spanish and Hindi live beside the
 * code that uses them, one catalog per feature folder (src/renderer/src/features/<name>/locales)
 * and one for the shared screens (src/renderer/src/locales), so each can be translated on its own.
 * `npm run i18n:extract` brings them up to date; the build refuses a catalog with a message left
 * untranslated (electron.vite.config.ts).
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'de', 'es', 'hi'],
  fallbackLocales: { default: 'en' },
  orderBy: 'message',
  format: formatter({ lineNumbers: false, printLinguiId: false }),
  catalogs: [
    {
      path: '<rootDir>/src/renderer/src/features/{name}/locales/{locale}',
      include: ['<rootDir>/src/renderer/src/features/{name}/'],
      // The admin console is big enough to have a catalog per part (below).
      exclude: ['<rootDir>/src/renderer/src/features/admin/**'],
    },
    {
      path: '<rootDir>/src/renderer/src/features/admin/{name}/locales/{locale}',
      include: ['<rootDir>/src/renderer/src/features/admin/{name}/'],
      exclude: ['<rootDir>/src/renderer/src/features/admin/locales/**'],
    },
    {
      path: '<rootDir>/src/renderer/src/features/admin/locales/{locale}',
      include: ['<rootDir>/src/renderer/src/features/admin/*.{ts,tsx}'],
    },
    {
      path: '<rootDir>/src/renderer/src/locales/{locale}',
      include: [
        '<rootDir>/src/renderer/src/app/',
        '<rootDir>/src/renderer/src/components/',
        '<rootDir>/src/renderer/src/lib/',
      ],
    },
  ],
});
