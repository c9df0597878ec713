import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import PostalMime from 'postal-mime';

export interface MailFile {
  filename: string | null;
  mimeType: string;
  content: Buffer;
}

/** One mail as a person's mail client would show it, read from its raw MIME bytes. */
export interface ParsedMail {
  to: string;
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part, when there is one. */
  html: string | undefined;
  attachments: MailFile[];
  /** Top-level headers by lower-case name (the first of each), as written. */
  headers: Map<string, string>;
  raw: string;
}

export interface OutboxMail extends ParsedMail {
  file: string;
}

/** Parses a raw mail (as written to the outbox or received over SMTP) with a real MIME parser. */
export async function parseMail(raw: string): Promise<ParsedMail> {
  const email = await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' });
  const headers = new Map<string, string>();
  for (const { key, value } of email.headers) if (!headers.has(key)) headers.set(key, value);
  return {
    to: headers.get('to') ?? '',
    subject: email.subject ?? '',
    text: email.text ?? '',
    html: email.html,
    attachments: email.attachments.map((file) => ({
      filename: file.filename,
      mimeType: file.mimeType,
      content: Buffer.from(file.content as ArrayBuffer),
    })),
    headers,
    raw,
  };
}

/** Reads the .eml files the server wrote (oldest first), as a person opening them would see them. */
export async function readOutbox(directory: string): Promise<OutboxMail[]> {
  let files: string[];
  try {
    files = (await readdir(directory)).filter((file) => file.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => ({
      file,
      ...(await parseMail(await readFile(join(directory, file), 'utf8'))),
    })),
  );
}

/** The `token` query parameter of the first link in a mail's text part. */
export function tokenFromMail(mail: Pick<ParsedMail, 'subject' | 'text'>): string {
  const match = /https?:\/\/\S+[?&]token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no link with a token in mail "${mail.subject}"`);
  return decodeURIComponent(match[1]);
}
