/** A mail ready to queue: what the templates make. */
export interface MailMessage {
  /** Which template made it; kept with the queued mail for the logs and the admin's eyes. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The link the mail is about, logged when mail goes to the file outbox so a local user can follow it. */
  link?: string;
  /**
   * Set on optional mail only: the one-click link that turns its notification preference off,
   * sent as `List-Unsubscribe` with `List-Unsubscribe-Post` (RFC 8058).
   */
  unsubscribeUrl?: string;
  /** Where a reply goes instead of the sender (a support request's mail: the customer). */
  replyTo?: string;
  attachments?: MailAttachment[];
}

/**
 * A file sent with a mail: either its bytes (small files made once), or a reference that the
 * worker turns into bytes when it sends the mail, through the resolver registered for the
 * reference's kind (see attachments.ts): a PDF that can be rebuilt is not stored twice.
 */
export type MailAttachment = {
  filename: string;
  contentType: string;
} & ({ content: Uint8Array; ref?: never } | { ref: AttachmentRef; content?: never });

export interface AttachmentRef {
  /** Names the resolver, e.g. `invoice_pdf`. */
  kind: string;
  id: string;
}

/**
 * A mail whose content is decided when the worker first takes it, in a transaction of its own:
 * for requests that must be answered alike whether or not the address has an account, so the
 * answer waits only for this row, never for the lookups and writes behind the mail.
 */
export interface MailRequest {
  kind: string;
  /** The address as typed; the preparer decides whether anything goes to it. */
  to: string;
  details?: Record<string, string>;
}
