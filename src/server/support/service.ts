import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Paged } from '../../shared/api/paging.js';
import type {
  AdminSupportRequest,
  adminSupportRequestListQuerySchema,
  SupportRequest,
  SupportRequestBody,
  supportRequestListQuerySchema,
  SupportRequestReceipt,
} from '../../shared/api/support.js';
import { portalPaths } from '../../shared/routes.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { isUniqueViolation } from '../platform/db/errors.js';
import type { SupportRequestRow, UserRow } from '../platform/db/tables.js';
import { notFound } from '../platform/http-error.js';
import type { Mailer } from '../platform/mail/mailer.js';
import { mailLanguage } from '../identity/index.js';
import { supportRequestMail, supportRequestReceivedMail } from './mail.js';
import {
  findSupportRequest,
  insertSupportRequest,
  listSupportRequests,
  listSupportRequestsOfUser,
  setSupportRequestHandled,
  type SupportRequestWithHandler,
} from './repository.js';

type ListQuery = z.output<typeof adminSupportRequestListQuerySchema>;
type OwnListQuery = z.output<typeof supportRequestListQuerySchema>;

/** Letters and digits nobody misreads on the phone (no I, L, O, U, 0 or 1). */
const REFERENCE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';

/** `SR-` and eight characters: 30^8 (about 6.5 × 10^11) references, checked unique when stored. */
export function newSupportReference(): string {
  const bytes = randomBytes(8);
  let code = '';
  for (const byte of bytes) code += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
  return `SR-${code}`;
}

const toSupportRequest = (row: SupportRequestRow): SupportRequest => ({
  id: row.id,
  reference: row.reference,
  topic: row.topic,
  subject: row.subject,
  state: row.handled_at ? 'handled' : 'open',
  handled_at: row.handled_at,
  created_at: row.created_at,
});

const toAdminSupportRequest = (row: SupportRequestWithHandler): AdminSupportRequest => ({
  id: row.id,
  reference: row.reference,
  user_id: row.user_id,
  email: row.email,
  topic: row.topic,
  subject: row.subject,
  message: row.message,
  diagnostics: row.diagnostics,
  state: row.handled_at ? 'handled' : 'open',
  handled_at: row.handled_at,
  handled_by_email: row.handled_by_email,
  created_at: row.created_at,
});

export interface SupportServiceDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  /** PUBLIC_URL: the acknowledgement links to the Support page. */
  publicUrl: string;
  /** SUPPORT_EMAIL: where requests are mailed; unset keeps them for administrators only. */
  supportEmail: string | undefined;
}

/** The customer's support requests and the administrators' list of them. */
export function createSupportService({ db, clock, mailer, publicUrl, supportEmail }: SupportServiceDeps) {
  const supportUrl = new URL(portalPaths.support, publicUrl).toString();
  return {
    /**
     * Stores the request and, in the same transaction, queues its mail to the support address and
     * the acknowledgement to the customer: the mail exists if and only if the request does, and
     * the answer never waits for delivery.
     */
    async send(user: UserRow, body: SupportRequestBody): Promise<SupportRequestReceipt> {
      const now = clock.now();
      const diagnostics = body.diagnostics ?? null;
      for (let attempt = 1; ; attempt++) {
        const row = {
          id: randomUUID(),
          reference: newSupportReference(),
          user_id: user.id,
          email: user.email,
          topic: body.topic,
          subject: body.subject,
          message: body.message,
          diagnostics,
          handled_at: null,
          handled_by: null,
          created_at: now.toISOString(),
        };
        try {
          await db.transaction().execute(async (trx) => {
            await insertSupportRequest(trx, row);
            await mailer.queue(
              trx,
              supportRequestReceivedMail({
                to: user.email,
                name: user.full_name,
                language: mailLanguage(user),
                reference: row.reference,
                topic: row.topic,
                subject: row.subject,
                message: row.message,
                sentAt: now,
                supportUrl,
                replyTo: supportEmail,
              }),
            );
            if (supportEmail)
              await mailer.queue(
                trx,
                supportRequestMail({
                  to: supportEmail,
                  reference: row.reference,
                  customerEmail: user.email,
                  customerName: user.full_name,
                  userId: user.id,
                  topic: row.topic,
                  subject: row.subject,
                  message: row.message,
                  diagnostics,
                  sentAt: now,
                }),
              );
          });
        } catch (error) {
          // Two requests drew the same reference: draw again (the transaction wrote nothing).
          if (isUniqueViolation(error) && attempt < 3) continue;
          throw error;
        }
        return {
          id: row.id,
          reference: row.reference,
          reply_to: user.email,
          diagnostics_included: diagnostics !== null,
          created_at: row.created_at,
        };
      }
    },

    /** The caller's own requests and whether each was handled; nobody else's. */
    async listOwn(user: UserRow, query: OwnListQuery): Promise<Paged<SupportRequest>> {
      const page = await listSupportRequestsOfUser(db, user.id, query);
      return { ...page, data: page.data.map(toSupportRequest) };
    },

    admin: {
      async list(query: ListQuery): Promise<Paged<AdminSupportRequest>> {
        const page = await listSupportRequests(db, query);
        return { ...page, data: page.data.map(toAdminSupportRequest) };
      },

      /** Marks a request handled by the administrator, or open again; the same answer when repeated. */
      async setHandled(adminId: string, id: string, handled: boolean): Promise<AdminSupportRequest> {
        const current = await findSupportRequest(db, id);
        if (!current) throw notFound('support_request_not_found', 'Support request not found');
        if (handled !== (current.handled_at !== null)) {
          await setSupportRequestHandled(
            db,
            id,
            handled ? { at: clock.now().toISOString(), by: adminId } : null,
          );
        }
        const row = await findSupportRequest(db, id);
        if (!row) throw notFound('support_request_not_found', 'Support request not found');
        return toAdminSupportRequest(row);
      },
    },
  };
}

export type SupportService = ReturnType<typeof createSupportService>;
