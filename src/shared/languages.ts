/**
 * The languages the portal and its mail speak (issue 34). English is the source: every message is
 * written in English in the code, and SPEC's exact messages stay exactly as they are in English.
 */
export const PORTAL_LANGUAGES = ['en', 'de', 'es', 'hi'] as const;
export type PortalLanguage = (typeof PORTAL_LANGUAGES)[number];

export const SOURCE_LANGUAGE: PortalLanguage = 'en';

/**
 * The pseudo-locale (the tag Android and Chromium use for it): English accented and made 40 %
 * longer, so that text which never went through a translation stands out on screen, and long
 * translations' overflow shows. Tests choose it; the language switch never offers it.
 */
export const PSEUDO_LANGUAGE = 'en-XA';

/** Each language in its own words, as the language switch shows it. */
export const LANGUAGE_NAMES: Record<PortalLanguage, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  hi: 'हिन्दी',
};

export const isPortalLanguage = (value: unknown): value is PortalLanguage =>
  (PORTAL_LANGUAGES as readonly unknown[]).includes(value);

/**
 * The first of `tags` (a preference such as `de-AT`, or the browser's list) whose language the
 * portal speaks, by its primary subtag; English when none is.
 */
export function portalLanguageOf(tags: readonly (string | null | undefined)[]): PortalLanguage {
  for (const tag of tags) {
    const primary = tag?.split('-')[0]?.toLowerCase();
    if (isPortalLanguage(primary)) return primary;
  }
  return SOURCE_LANGUAGE;
}

/** True for text with a run of three plain Latin letters: in the pseudo-locale, text that skipped translation. */
export const looksUntranslated = (text: string): boolean => /[A-Za-z]{3}/.test(text);
