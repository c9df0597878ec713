import type { Db } from '../db/database.js';
import type { AttachmentRef, MailAttachment } from './message.js';

/**
 * Turns a reference into the file's bytes when the worker sends the mail, e.g. renders invoice
 * `id` as a PDF. It runs outside any request, may read the database, and throws to have the
 * attempt retried with backoff like any other failed send.
 */
export type AttachmentResolver = (db: Db, id: string) => Promise<Uint8Array>;

/** A file as the transport sends it. */
export interface ResolvedAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** The resolvers of one server, by reference kind; modules register theirs when the app is built. */
export interface AttachmentResolvers {
  register(kind: string, resolver: AttachmentResolver): void;
  resolve(db: Db, attachments: MailAttachment[]): Promise<ResolvedAttachment[]>;
}

export function createAttachmentResolvers(): AttachmentResolvers {
  const resolvers = new Map<string, AttachmentResolver>();
  return {
    register(kind, resolver) {
      if (resolvers.has(kind)) throw new Error(`an attachment resolver for ${kind} is already registered`);
      resolvers.set(kind, resolver);
    },
    async resolve(db, attachments) {
      const resolved: ResolvedAttachment[] = [];
      for (const { filename, contentType, ...file } of attachments) {
        let content = file.content;
        if (file.ref) {
          const resolver = resolvers.get(file.ref.kind);
          // Failed (and retried) rather than sent without the file the mail promises.
          if (!resolver) throw new Error(`no attachment resolver is registered for ${file.ref.kind}`);
          content = await resolver(db, file.ref.id);
        }
        if (!content) throw new Error(`attachment ${filename} has neither content nor a reference`);
        resolved.push({ filename, contentType, content });
      }
      return resolved;
    },
  };
}

/** How attachments are kept in the outbox row: references as they are, bytes as base64. */
type StoredAttachment = { filename: string; contentType: string } & (
  { ref: AttachmentRef } | { base64: string }
);

export function storeAttachments(attachments: MailAttachment[] | undefined): string | null {
  if (!attachments?.length) return null;
  const stored = attachments.map(({ filename, contentType, content, ref }): StoredAttachment =>
    ref
      ? { filename, contentType, ref: { kind: ref.kind, id: ref.id } }
      : { filename, contentType, base64: Buffer.from(content as Uint8Array).toString('base64') },
  );
  return JSON.stringify(stored);
}

export function readStoredAttachments(stored: string | null): MailAttachment[] {
  if (stored === null) return [];
  return (JSON.parse(stored) as StoredAttachment[]).map((file) =>
    'ref' in file
      ? { filename: file.filename, contentType: file.contentType, ref: file.ref }
      : {
          filename: file.filename,
          contentType: file.contentType,
          content: Buffer.from(file.base64, 'base64'),
        },
  );
}
