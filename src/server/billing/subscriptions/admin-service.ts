import type { z } from 'zod';
import type {
  AdminSubscription,
  AdminSubscriptionDetail,
  adminCancelSubscriptionRequestSchema,
  adminPauseSubscriptionRequestSchema,
  adminResumePauseRequestSchema,
  adminSubscriptionListQuerySchema,
} from '../../../shared/api/admin-subscriptions.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/http-error.js';
import { toInvoice } from '../invoices/repository.js';
import { toAdminPayment } from '../payments/repository.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../../platform/security-log/service.js';
import {
  chargesWithUser,
  findAdminSubscription,
  invoicesOfPayments,
  listAdminSubscriptions,
  type SubscriptionWithUser,
} from './admin-repository.js';
import type { SubscriptionsService } from './service.js';

type ListQuery = z.output<typeof adminSubscriptionListQuerySchema>;
type CancelInput = z.output<typeof adminCancelSubscriptionRequestSchema>;
type PauseInput = z.output<typeof adminPauseSubscriptionRequestSchema>;
type ResumeInput = z.output<typeof adminResumePauseRequestSchema>;

const subscriptionNotFound = () => notFound('subscription_not_found', 'Subscription not found');

/**
 * Administrators' view of every customer's subscriptions (`/admin/subscriptions`). Cancelling
 * goes through the customer's service, so its rules (the provider first, the license ended now
 * or at the period's end, the customer's mail) are the same; refunds stay with the payments.
 */
export function createAdminSubscriptionsService({
  db,
  clock,
  subscriptions,
}: {
  db: Db;
  clock: Clock;
  subscriptions: SubscriptionsService;
}) {
  async function withUser(row: SubscriptionWithUser): Promise<AdminSubscription> {
    const { user_email: userEmail, organisation_name: organisationName, ...subscription } = row;
    return {
      ...(await subscriptions.toSubscription(subscription)),
      user_id: row.user_id,
      user_email: userEmail,
      seats: Number(row.seats),
      organisation:
        row.organisation_id && organisationName !== null
          ? { id: row.organisation_id, name: organisationName }
          : null,
    };
  }

  async function detail(id: string): Promise<AdminSubscriptionDetail> {
    const row = await findAdminSubscription(db, id);
    if (!row) throw subscriptionNotFound();
    const charges = await chargesWithUser(db, row.id);
    const invoices = await invoicesOfPayments(
      db,
      charges.map((charge) => charge.id),
    );
    return {
      ...(await withUser(row)),
      charges: charges.map(toAdminPayment),
      invoices: invoices.map(toInvoice),
    };
  }

  return {
    async list(query: ListQuery): Promise<Paged<AdminSubscription>> {
      const page = await listAdminSubscriptions(db, query);
      return { ...page, data: await Promise.all(page.data.map(withUser)) };
    },

    detail,

    /** Cancels at the period's end or now, as the customer could; the security log keeps who and why. */
    async cancel(actor: AdminActor, id: string, input: CancelInput): Promise<AdminSubscriptionDetail> {
      const before = await findAdminSubscription(db, id);
      if (!before) throw subscriptionNotFound();
      await subscriptions.cancelById(before.id, { at: input.at }, (trx, cancelled) =>
        recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.subscriptionCancelled,
          severity: 'warning',
          userId: cancelled.user_id,
          details: {
            subscription_id: cancelled.id,
            provider_subscription_id: cancelled.provider_subscription_id,
            at: cancelled.status === 'cancelled' ? 'now' : 'period_end',
            requested: input.at,
            reason: input.reason,
            license_id: cancelled.license_id,
          },
        }),
      );
      return detail(before.id);
    },

    /** Pauses as the customer could; the security log keeps who and why. */
    async pause(actor: AdminActor, id: string, input: PauseInput): Promise<AdminSubscriptionDetail> {
      const before = await findAdminSubscription(db, id);
      if (!before) throw subscriptionNotFound();
      await subscriptions.pauseById(before.id, input.periods, (trx, paused) =>
        recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.subscriptionPaused,
          severity: 'warning',
          userId: paused.user_id,
          details: {
            subscription_id: paused.id,
            provider_subscription_id: paused.provider_subscription_id,
            periods: input.periods,
            pause_resumes_at: paused.pause_resumes_at,
            reason: input.reason,
            license_id: paused.license_id,
          },
        }),
      );
      return detail(before.id);
    },

    /** Resumes a paused subscription now, or withdraws a planned pause; the security log keeps who and why. */
    async unpause(actor: AdminActor, id: string, input: ResumeInput): Promise<AdminSubscriptionDetail> {
      const before = await findAdminSubscription(db, id);
      if (!before) throw subscriptionNotFound();
      await subscriptions.unpauseById(before.id, (trx, resumed) =>
        recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.subscriptionPauseEnded,
          severity: 'warning',
          userId: resumed.user_id,
          details: {
            subscription_id: resumed.id,
            provider_subscription_id: resumed.provider_subscription_id,
            status: resumed.status,
            reason: input.reason,
            license_id: resumed.license_id,
          },
        }),
      );
      return detail(before.id);
    },
  };
}

export type AdminSubscriptionsService = ReturnType<typeof createAdminSubscriptionsService>;
