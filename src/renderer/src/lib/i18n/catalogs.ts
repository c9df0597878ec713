import type { Messages } from '@lingui/core';
import type { PortalLanguage } from '../../../../shared/languages';

/**
 * Each language's catalogs (lingui.config.ts), compiled by the build, and loaded only when another
 * language than English is shown: English needs none, since the code holds it. This module is
 * itself loaded then, so the list of the catalogs' files (one import each) stays out of the first
 * download. The admin console's are apart, so customers download none of its words.
 */
type Catalogs = Record<string, () => Promise<{ messages: Messages }>>;
const portalCatalogs: Catalogs = import.meta.glob<{ messages: Messages }>([
  '../../locales/*.po',
  '../../features/*/locales/*.po',
  '!../../features/admin/**',
  '!**/en.po',
]);
const adminCatalogs: Catalogs = import.meta.glob<{ messages: Messages }>([
  '../../features/admin/**/locales/*.po',
  '!**/en.po',
]);

async function messagesOf(catalogs: Catalogs, language: PortalLanguage): Promise<Messages> {
  const loads = Object.entries(catalogs)
    .filter(([path]) => path.endsWith(`/${language}.po`))
    .map(([, load]) => load());
  return Object.assign({}, ...(await Promise.all(loads)).map((module) => module.messages)) as Messages;
}

/** The messages of every customer's screen in `language`, and of the admin console's when asked. */
export async function catalogMessages(language: PortalLanguage, admin: boolean): Promise<Messages> {
  const [portal, adminConsole] = await Promise.all([
    messagesOf(portalCatalogs, language),
    admin ? messagesOf(adminCatalogs, language) : {},
  ]);
  return { ...portal, ...adminConsole };
}

/** The admin console's messages in `language` alone, for a console opened after the language was. */
export const adminMessages = (language: PortalLanguage): Promise<Messages> =>
  messagesOf(adminCatalogs, language);
