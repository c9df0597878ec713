import { type I18n, type MessageDescriptor, setupI18n } from '@lingui/core';
import { type PortalLanguage, portalLanguageOf } from '../../../shared/languages.js';
import { messages as de } from './locales/de.js';
import { messages as en } from './locales/en.js';
import { messages as es } from './locales/es.js';
import { messages as hi } from './locales/hi.js';

/*
 * The mail's languages (issue 34, item 6). A mail is written once, in the recipient's language,
 * when it is composed (queued): the worker sends the stored words. Messages are Lingui message
 * descriptors with a stable id and the English in the code, translated through `i18n._(…)` so
 * `npm run i18n:mail` finds them without macros (the server is compiled by tsc, run by tsx):
 *
 *   i18n._({ id: 'mail.verification.subject', message: 'Confirm your {product} account' }, { product })
 *
 * The catalogs are src/server/platform/mail/locales/{locale}.po, compiled beside them to
 * `{locale}.ts` (lingui.mail.config.ts).
 */

const catalogs = { en, de, es, hi } satisfies Record<PortalLanguage, unknown>;

/** What a mail is written with: `_(descriptor, values)` and the language it writes. */
export interface MailI18n {
  readonly locale: PortalLanguage;
  _(descriptor: MessageDescriptor, values?: Record<string, unknown>): string;
}

const instances = new Map<PortalLanguage, MailI18n>();

/** The language mail to someone with this language preference (`de-AT`, `pt`, none) is written in. */
export const mailLanguageOf = (preference: string | null | undefined): PortalLanguage =>
  portalLanguageOf([preference]);

/** Lingui, speaking the language of someone with this preference; English when the portal does not speak it. */
export function mailI18n(preference?: string | null): MailI18n {
  const language = mailLanguageOf(preference);
  let mail = instances.get(language);
  if (!mail) {
    const lingui: I18n = setupI18n({ locale: language, messages: { [language]: catalogs[language] } });
    mail = {
      locale: language,
      _: (descriptor, values) => lingui._(values ? { ...descriptor, values } : descriptor),
    };
    instances.set(language, mail);
  }
  return mail;
}
