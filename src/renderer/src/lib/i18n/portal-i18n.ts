import { i18n, type MessageDescriptor, type MessageOptions } from '@lingui/core';
import type { CompiledMessage } from '@lingui/message-utils/compileMessage';
import {
  PSEUDO_LANGUAGE,
  SOURCE_LANGUAGE,
  isPortalLanguage,
  portalLanguageOf,
  type PortalLanguage,
} from '../../../../shared/languages';
import { LANGUAGE_STORAGE_KEY } from '../../../../shared/storage-keys';
import type { KnownPattern } from './form-messages';
import type { pseudoMessage as PseudoMessage } from './pseudo-locale';

/** A language the portal can show: one of the four, or the pseudo-locale tests choose. */
export type ShownLanguage = PortalLanguage | typeof PSEUDO_LANGUAGE;

/** Whether the admin console's catalogs load with a language (see catalogs.ts): once it has opened. */
let adminWanted = false;

// Every message arrives compiled (the English in the code by the build, see scripts/vite-lingui.ts,
// and the catalogs as they load): a plain string is shown as it is, and no ICU parser is shipped.
i18n.setMessagesCompiler((message) => message as unknown as CompiledMessage);
// English is there before anything renders: the public pages rendered at build time are English.
i18n.loadAndActivate({ locale: SOURCE_LANGUAGE, messages: {} });

const translate = i18n._.bind(i18n);

/**
 * SPEC's and the server's English messages the portal knows (known-messages.ts), for the language
 * shown: none in English, where the English the code and the server hold is what shows.
 */
let knownMessages: ReadonlyMap<string, MessageDescriptor> = new Map();
/** The known messages built around a value ("Must be at most 100 characters"). */
let knownPatterns: readonly KnownPattern[] = [];

/** What the known patterns need of the language shown. */
const shownTools = {
  number: (value: number) => new Intl.NumberFormat(formattingLocale()).format(value),
  // Here rather than through lib/format-date.ts, which asks this module for the locale.
  dateTime: (iso: string) =>
    new Intl.DateTimeFormat(formattingLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(iso),
    ),
  known: (text: string) => knownText(text),
  get locale() {
    return formattingLocale() ?? SOURCE_LANGUAGE;
  },
};

/**
 * A message in SPEC's English (src/shared/messages.ts), the server's or the shared schemas', in
 * the language shown when the portal knows it; any other text (a message the server built around
 * a value it does not know) as it is.
 */
export function knownText(text: string): string {
  const descriptor = knownMessages.get(text);
  if (descriptor) return i18n._(descriptor);
  for (const { pattern, message } of knownPatterns) {
    const match = pattern.exec(text);
    if (match) return i18n._(message(match, shownTools));
  }
  return text;
}
type Translate = typeof translate;

/**
 * The pseudo-locale: every message shown is its English made pseudo (no catalog holds it), while
 * the values put into it (names, amounts) stay as they are, so only untranslated text is plain.
 * Its code loads only when it is chosen.
 */
const pseudoTranslateWith = (pseudoMessage: typeof PseudoMessage) =>
  ((id: MessageDescriptor | string, values?: MessageDescriptor['values'], options?: MessageOptions) => {
    // Lingui types a message as its text, but the build hands it over compiled (see above).
    const pseudo = (message: string) => pseudoMessage(message) as string;
    return typeof id === 'object'
      ? translate({ ...id, message: pseudo(id.message ?? id.id) })
      : translate(id, values, { ...options, message: pseudo(options?.message ?? id) });
  }) as Translate;

export { i18n as portalI18n };

/**
 * The admin console's catalogs, from now on with every language shown; the current language's
 * join at once (its screens show in English for the moment they take).
 */
export async function includeAdminCatalogs(): Promise<void> {
  if (adminWanted) return;
  adminWanted = true;
  const language = i18n.locale;
  if (isPortalLanguage(language) && language !== SOURCE_LANGUAGE) {
    const { adminMessages } = await import('./catalogs');
    i18n.load(language, await adminMessages(language));
  }
}

function rememberLanguage(language: ShownLanguage): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // A browser that keeps nothing still shows the language; it asks again next time.
  }
}

/** The language this browser last chose, else the browser's own (the account's comes on sign-in). */
export function browserLanguage(): ShownLanguage {
  let stored: string | null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    stored = null;
  }
  if (stored === PSEUDO_LANGUAGE || isPortalLanguage(stored)) return stored;
  return portalLanguageOf(typeof navigator === 'undefined' ? [] : navigator.languages);
}

/**
 * Shows the portal in `language`: its catalogs are loaded first, so no screen renders half
 * translated; the page's `lang` follows, and the choice is kept in this browser.
 */
export async function showLanguage(language: ShownLanguage): Promise<void> {
  if (language === i18n.locale) return;
  const [messages, known, pseudo] = await Promise.all([
    isPortalLanguage(language) && language !== SOURCE_LANGUAGE
      ? import('./catalogs').then(({ catalogMessages }) => catalogMessages(language, adminWanted))
      : {},
    // SPEC's and the server's English messages, for `knownText`: English shows them as they are.
    language === SOURCE_LANGUAGE ? undefined : import('./known-messages'),
    language === PSEUDO_LANGUAGE ? import('./pseudo-locale') : undefined,
  ]);
  // `t` is Lingui's bound copy of `_`, which `useLingui` hands out: both change together.
  i18n._ = i18n.t = pseudo ? pseudoTranslateWith(pseudo.pseudoMessage) : translate;
  knownMessages = known?.KNOWN_MESSAGES ?? new Map();
  knownPatterns = known?.KNOWN_PATTERNS ?? [];
  i18n.loadAndActivate({ locale: language, messages });
  document.documentElement.lang = language;
  rememberLanguage(language);
}

/** The language shown now. */
export const shownLanguage = (): ShownLanguage => i18n.locale as ShownLanguage;

/** The locale dates, numbers and money are written in: the language shown, English as the browser's. */
export function formattingLocale(): string | undefined {
  const language = shownLanguage();
  if (language === SOURCE_LANGUAGE || language === PSEUDO_LANGUAGE) return undefined;
  return language === 'hi' ? 'hi-IN' : language;
}
