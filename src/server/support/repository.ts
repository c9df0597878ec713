import type { z } from 'zod';
import type {
  adminSupportRequestListQuerySchema,
  supportRequestListQuerySchema,
} from '../../shared/api/support.js';
import type { Paged } from '../../shared/api/paging.js';
import type { DbOrTransaction } from '../platform/db/database.js';
import { fetchPage, matchesSearch } from '../platform/db/paging.js';
import type { SupportRequestRow, SupportRequestsTable } from '../platform/db/tables.js';

/** A request with the address of the administrator who marked it handled (null once deleted). */
export type SupportRequestWithHandler = SupportRequestRow & { handled_by_email: string | null };

export async function insertSupportRequest(db: DbOrTransaction, row: SupportRequestsTable): Promise<void> {
  await db.insertInto('support_requests').values(row).execute();
}

const withHandler = (db: DbOrTransaction) =>
  db
    .selectFrom('support_requests')
    .leftJoin('users as handler', 'handler.id', 'support_requests.handled_by')
    .selectAll('support_requests')
    .select('handler.email as handled_by_email');

export const findSupportRequest = (
  db: DbOrTransaction,
  id: string,
): Promise<SupportRequestWithHandler | undefined> =>
  withHandler(db).where('support_requests.id', '=', id).executeTakeFirst();

/** One page of every request, newest first unless sorted otherwise, open or handled ones when asked. */
export async function listSupportRequests(
  db: DbOrTransaction,
  query: z.output<typeof adminSupportRequestListQuerySchema>,
): Promise<Paged<SupportRequestWithHandler>> {
  let select = withHandler(db);
  if (query.state === 'open') select = select.where('support_requests.handled_at', 'is', null);
  if (query.state === 'handled') select = select.where('support_requests.handled_at', 'is not', null);
  if (query.search) {
    select = select.where(
      matchesSearch(
        ['support_requests.reference', 'support_requests.email', 'support_requests.subject'],
        query.search,
      ),
    );
  }
  const direction = query.sort?.direction ?? 'desc';
  select = select.orderBy('support_requests.created_at', direction).orderBy('support_requests.id', direction);
  return fetchPage(select, query);
}

/** One page of one account's own requests, newest first unless sorted otherwise; `search` as the admins'. */
export async function listSupportRequestsOfUser(
  db: DbOrTransaction,
  userId: string,
  query: z.output<typeof supportRequestListQuerySchema>,
): Promise<Paged<SupportRequestRow>> {
  let select = db.selectFrom('support_requests').selectAll().where('user_id', '=', userId);
  if (query.search)
    select = select.where(
      matchesSearch(['support_requests.reference', 'support_requests.subject'], query.search),
    );
  const direction = query.sort?.direction ?? 'desc';
  return fetchPage(select.orderBy('created_at', direction).orderBy('id', direction), query);
}

/** Marks a request handled (by `adminId`) or open again; false when there is no such request. */
export async function setSupportRequestHandled(
  db: DbOrTransaction,
  id: string,
  handled: { at: string; by: string } | null,
): Promise<boolean> {
  const result = await db
    .updateTable('support_requests')
    .set({ handled_at: handled?.at ?? null, handled_by: handled?.by ?? null })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
