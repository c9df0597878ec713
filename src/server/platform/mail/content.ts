import { mailBrand } from './brand.js';
import type { MailI18n } from './mail-i18n.js';

/**
 * What a mail says, once: the HTML part (layout.ts) and the plain-text part (below) are both
 * made from it, so the two never drift apart. Every string is plain text; the HTML layout lets
 * React escape it, so a value a user typed (a name, a reason, a browser's user agent) can never
 * become markup.
 */
export interface MailContent {
  /** The line mail clients show beside the subject in the inbox list. */
  preview: string;
  heading: string;
  /** What comes before the button. */
  body: MailBlock[];
  /** The one thing the mail asks the reader to do: a button in HTML, the label and URL in text. */
  action?: { label: string; url: string };
  /** What comes after the button (how long the link works, what to do if it was not you). */
  after?: MailBlock[];
}

export type MailBlock =
  | { paragraph: string }
  /** Label and value pairs: an amount, a date, a licence key. */
  | { details: Array<{ label: string; value: string }> }
  /** Smaller, dimmed text. */
  | { note: string };

/** Why an optional mail came, and the link that stops mail of its kind (see unsubscribe.ts). */
export interface MailUnsubscribe {
  url: string;
  /** "You receive billing reminders because they are on in your notification preferences." */
  reason: string;
}

/** "— The … team", under every mail. */
export const mailSignature = (i18n: MailI18n) =>
  i18n._(
    { id: 'mail.footer.signature', message: '— The {product} team' },
    { product: mailBrand.productName },
  );

function blockText(block: MailBlock): string {
  if ('paragraph' in block) return block.paragraph;
  if ('note' in block) return block.note;
  return block.details.map(({ label, value }) => `${label}: ${value}`).join('\n');
}

/** The plain-text part: the same words as the HTML, the link on a line of its own. */
export function renderMailText(i18n: MailI18n, content: MailContent, unsubscribe?: MailUnsubscribe): string {
  const parts = [content.heading, ...content.body.map(blockText)];
  if (content.action) parts.push(`${content.action.label}:\n${content.action.url}`);
  parts.push(...(content.after ?? []).map(blockText), mailSignature(i18n));
  if (unsubscribe) {
    const stop = i18n._(
      { id: 'mail.footer.stopLink', message: 'To stop these mails: {url}' },
      { url: unsubscribe.url },
    );
    parts.push(`${unsubscribe.reason}\n${stop}`);
  }
  return parts.join('\n\n');
}
