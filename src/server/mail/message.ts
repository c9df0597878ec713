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
