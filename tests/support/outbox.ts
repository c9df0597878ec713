import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

/** Undoes quoted-printable transfer encoding (soft line breaks and =XX escapes) of a mail body. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_match, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
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
    files.map(async (file) => {
      const { to, subject, text } = parseMail(await readFile(join(directory, file), 'utf8'));
      return { file, to, subject, text };
    }),
  );
}

/** The headers and text of one raw mail (as written to the outbox or received over SMTP). */
export function parseMail(rawMail: string): Omit<OutboxMail, 'file'> & { headers: Map<string, string> } {
  const raw = rawMail.replace(/\r\n/g, '\n');
  const split = raw.indexOf('\n\n');
  const headerText = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const headers = new Map(
    headerText.split('\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  const body = raw.slice(split + 2);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { headers, to: headers.get('to') ?? '', subject: decodeHeader(headers.get('subject') ?? ''), text };
}

/** The `token` query parameter of the first link in a mail. */
export function tokenFromMail(mail: Pick<OutboxMail, 'subject' | 'text'>): string {
  const match = /https?:\/\/\S+[?&]token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no link with a token in mail "${mail.subject}"`);
  return decodeURIComponent(match[1]);
}
