import type { BillingEvents } from '../events.js';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentRefunds, RefundRequest } from '../../../shared/api/invoices.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentRow, RefundRow } from '../../platform/db/tables.js';
import { conflict, HttpError, notFound } from '../../platform/http-error.js';
import {
  endForRefund,
  endPackForRefund,
  reopenPackAfterFailedRefund,
  revokeForRefund,
} from '../../licensing/index.js';
import { findPackOrder } from '../credit-packs/orders-repository.js';
import type { PaymentProvider } from '../payments/provider.js';
import { PaymentProviderError } from '../payments/provider.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import {
  type AdminActor,
  recordAdminAction,
  recordSecurityEvent,
} from '../../platform/security-log/service.js';
import { issueCreditNote, issueInvoiceForPayment } from './issue.js';
import {
  deletePendingRefund,
  findPaymentForRefund,
  findRefund,
  findRefundAmount,
  insertRefund,
  lockPayment,
  markRefundProcessed,
  pendingServerRefunds,
  refundsOfPayment,
  reservedOfPayment,
} from './refunds-repository.js';
import { findInvoiceRowOfPayment } from './repository.js';
import type { InvoiceSettings } from './settings.js';

const paymentNotFound = () => notFound('payment_not_found', 'Payment not found');

/** The server's own refund of part of a payment, under an id the caller fixes so it happens once. */
export interface RefundCreditInput {
  paymentId: string;
  amountMinor: number;
  reason: string;
  refundId: string;
}

/** How long a server refund may stay pending before the scheduler asks the provider again. */
export const PENDING_RETRY_AFTER_MS = 10 * 60 * 1000;

/** Who may see the minor amount left, in the words of a 409. */
const describeMinor = (amount: number, currency: string) => `${amount} (minor units of ${currency})`;

/**
 * Administrators' refunds of paid payments. The amount is reserved first (a pending refund,
 * written while the payment is locked, so two refunds at once never exceed what was paid), the
 * provider is asked, and then the credit note is issued and the license treated as the
 * administrator chose, in one transaction with the security event.
 */
export function createRefundsService({
  db,
  clock,
  events,
  provider,
  invoicing,
  log,
}: {
  db: Db;
  clock: Clock;
  /** Announces the refund, and the license it revoked. */
  events: BillingEvents;
  provider: PaymentProvider;
  invoicing: InvoiceSettings;
  log: FastifyBaseLogger;
}) {
  async function summary(paymentIdOrOrderId: string): Promise<PaymentRefunds> {
    const payment = await findPaymentForRefund(db, paymentIdOrOrderId);
    if (!payment) throw paymentNotFound();
    const [rows, invoice] = await Promise.all([
      refundsOfPayment(db, payment.id),
      findInvoiceRowOfPayment(db, payment.id),
    ]);
    const paid = payment.status === 'paid' ? Number(payment.amount_minor) : 0;
    const processed = rows.filter((row) => row.status === 'processed');
    const reserved = rows.reduce((sum, row) => sum + Number(row.amount_minor), 0);
    return {
      payment_id: payment.id,
      currency: payment.currency,
      paid,
      refunded: processed.reduce((sum, row) => sum + Number(row.amount_minor), 0),
      refundable: Math.max(0, paid - reserved),
      invoice: invoice ? { id: invoice.id, number: invoice.number } : null,
      refunds: rows.map((row) => ({
        id: row.id,
        payment_id: row.payment_id,
        amount: Number(row.amount_minor),
        currency: row.currency,
        status: row.status,
        provider_refund_id: row.provider_refund_id,
        reason: row.reason,
        license_action: row.license_action,
        actor_id: row.actor_id,
        created_at: row.created_at,
        credit_note:
          row.credit_note_id && row.credit_note_number
            ? { id: row.credit_note_id, number: row.credit_note_number }
            : null,
      })),
    };
  }

  /**
   * Checks the refund against the payment and reserves its amount as a pending refund, in the
   * caller's transaction; `actor` is null for the server's own refunds, whose `refundId` is fixed
   * by the caller.
   */
  async function reserveIn(
    trx: DbOrTransaction,
    actor: AdminActor | null,
    idOrOrderId: string,
    body: RefundRequest,
    refundId: string,
  ): Promise<{ payment: PaymentRow; refund: RefundRow }> {
    const found = await findPaymentForRefund(trx, idOrOrderId);
    if (!found) throw paymentNotFound();
    await lockPayment(trx, found.id);
    const payment = (await findPaymentForRefund(trx, found.id)) ?? found;
    if (payment.status === 'paid' && Number(payment.amount_minor) <= 0)
      throw conflict(
        'payment_not_charged',
        'This payment charged nothing (a plan change its credit paid for): there is nothing to refund',
      );
    if (payment.status !== 'paid' || !payment.provider_payment_id)
      throw conflict('payment_not_paid', 'Only a paid payment can be refunded');
    if (payment.provider !== provider.name)
      throw conflict(
        'payment_provider_changed',
        `This payment was taken by the ${payment.provider} provider, which this server no longer uses: refund it there`,
      );
    if (body.license_action !== 'keep' && !payment.license_id)
      throw conflict(
        'payment_has_no_license',
        'This payment granted no license (its buyer deleted the account): refund it with license_action keep',
      );
    const paid = Number(payment.amount_minor);
    const left = paid - (await reservedOfPayment(trx, payment.id));
    if (left <= 0) throw conflict('payment_fully_refunded', 'This payment is already refunded in full');
    const createdAt = isoNow(clock);
    // Credit packs give back their unused share only, and end what is left of them.
    const unused = await unusedPackShare(trx, payment, body, createdAt);
    const most = Math.min(left, unused ?? left);
    const amount = body.amount ?? most;
    if (amount > most)
      throw conflict(
        'refund_exceeds_payment',
        unused === undefined
          ? `At most ${describeMinor(left, payment.currency)} of this payment can still be refunded`
          : `At most ${describeMinor(most, payment.currency)} can be refunded: the unused share of the credit pack`,
      );
    // A payment from before invoices were issued gets its invoice now, so the credit note has one to correct.
    await issueInvoiceForPayment(trx, clock, invoicing, payment.id);
    const refund: RefundRow = {
      id: refundId,
      payment_id: payment.id,
      amount_minor: amount,
      currency: payment.currency,
      status: 'pending',
      provider_refund_id: null,
      reason: body.reason ? body.reason : null,
      license_action: body.license_action,
      actor_id: actor?.id ?? null,
      created_at: createdAt,
    };
    await insertRefund(trx, refund);
    return { payment, refund };
  }

  /**
   * The share of a credit pack payment whose units are unused, floored to the minor unit
   * (paid × unused ÷ units), with the pack ended in the reserving transaction so no more of it is
   * drawn; undefined for a payment that bought no pack. A pack used up is refused with 409.
   */
  async function unusedPackShare(
    trx: DbOrTransaction,
    payment: PaymentRow,
    body: RefundRequest,
    at: string,
  ): Promise<number | undefined> {
    if (!(await findPackOrder(trx, payment.id))) return undefined;
    if (body.license_action !== 'keep')
      throw conflict(
        'pack_refund_keeps_license',
        'A credit pack’s refund ends the pack, not the license: refund it with license_action keep',
      );
    const ended = await endPackForRefund(trx, payment.id, at);
    if (!ended) return undefined;
    return Math.floor((Number(payment.amount_minor) * (ended.units - ended.used)) / ended.units);
  }

  const reserve = (
    actor: AdminActor | null,
    idOrOrderId: string,
    body: RefundRequest,
    refundId: string = randomUUID(),
  ) => db.transaction().execute((trx) => reserveIn(trx, actor, idOrOrderId, body, refundId));

  /** Issues the credit note, treats the license and records the event, all or nothing. */
  async function complete(
    actor: AdminActor | null,
    payment: PaymentRow,
    refund: RefundRow,
    providerRefundId: string,
  ) {
    await db.transaction().execute(async (trx) => {
      await markRefundProcessed(trx, refund.id, providerRefundId);
      const invoice = await findInvoiceRowOfPayment(trx, payment.id);
      if (!invoice) throw new Error(`payment ${payment.id} has no invoice to credit`);
      const note = await issueCreditNote(trx, clock, invoicing, invoice, { ...refund, status: 'processed' });
      const now = isoNow(clock);
      let licenseOutcome: string = 'kept';
      if (payment.license_id && refund.license_action === 'revoke') {
        const revoked = await revokeForRefund(
          trx,
          events,
          payment.license_id,
          refund.reason ?? 'Payment refunded',
          now,
        );
        licenseOutcome = revoked ? 'revoked' : 'already_revoked';
      } else if (payment.license_id && refund.license_action === 'shorten') {
        const ended = await endForRefund(trx, payment.license_id, now);
        licenseOutcome = ended ? 'ends_now' : 'already_ended';
      }
      const event = {
        type: securityEventTypes.paymentRefunded,
        severity: actor ? ('warning' as const) : ('info' as const),
        userId: payment.user_id,
        details: {
          payment_id: payment.id,
          refund_id: refund.id,
          provider_refund_id: providerRefundId,
          amount: Number(refund.amount_minor),
          currency: refund.currency,
          credit_note: note.number,
          license_id: payment.license_id,
          license_action: refund.license_action,
          license_outcome: licenseOutcome,
          reason: refund.reason,
        },
      };
      if (actor) await recordAdminAction(trx, clock, actor, event);
      else await recordSecurityEvent(trx, clock, event);
      // With the credit note, and who refunded: an administrator's refund is receipted to the customer.
      await events.publish(trx, {
        type: 'payment.refunded',
        payment,
        refund: { ...refund, status: 'processed', provider_refund_id: providerRefundId },
        invoice,
        creditNote: note,
        byAdministrator: actor !== null,
        details: {
          refund: {
            id: refund.id,
            amount_minor: Number(refund.amount_minor),
            currency: refund.currency,
            reason: refund.reason,
            credit_note: note.number,
            license_action: refund.license_action,
            license_outcome: licenseOutcome,
          },
        },
      });
    });
  }

  /** Asks the provider; a refusal gives a new reservation back and says nothing was refunded. */
  async function askProvider(payment: PaymentRow, refund: RefundRow, reserved: boolean): Promise<string> {
    try {
      const { refundId } = await provider.refundPayment({
        providerPaymentId: payment.provider_payment_id ?? '',
        amount: Number(refund.amount_minor),
        notes: { refund_id: refund.id, payment_id: payment.id },
      });
      return refundId;
    } catch (error) {
      if (reserved) {
        await deletePendingRefund(db, refund.id);
        // Nothing was refunded: a credit pack ended for it is drawn from again.
        await reopenPackAfterFailedRefund(db, payment.id, refund.created_at);
      }
      throw error;
    }
  }

  /**
   * The server's own refund of part of a payment (a plan change's credit), at most what is left
   * to refund, under the caller's `refundId`: asked again after a failure, it refunds once. A
   * provider's refusal is thrown (PaymentProviderError) for the caller to try again later.
   */
  async function refundCredit(input: RefundCreditInput): Promise<void> {
    const earlier = await findRefund(db, input.refundId);
    if (earlier?.status === 'processed') return;
    let reserved: { payment: PaymentRow; refund: RefundRow };
    if (earlier) {
      // A refund left pending by a crash is asked for again.
      const payment = await findPaymentForRefund(db, earlier.payment_id);
      if (!payment) throw new Error(`payment ${earlier.payment_id} of refund ${earlier.id} is gone`);
      reserved = { payment, refund: earlier };
    } else {
      const amount = Math.min(input.amountMinor, (await summary(input.paymentId)).refundable);
      if (amount <= 0) return;
      reserved = await reserve(
        null,
        input.paymentId,
        { amount, reason: input.reason, license_action: 'keep' },
        input.refundId,
      );
    }
    const providerRefundId = await askProvider(reserved.payment, reserved.refund, !earlier);
    await complete(null, reserved.payment, reserved.refund, providerRefundId);
  }

  return {
    refunds: summary,

    async refund(actor: AdminActor, idOrOrderId: string, body: RefundRequest): Promise<PaymentRefunds> {
      const { payment, refund } = await reserve(actor, idOrOrderId, body);
      let providerRefundId: string;
      try {
        providerRefundId = await askProvider(payment, refund, true);
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        log.error({ detail: error.detail, paymentId: payment.id }, error.message);
        throw new HttpError(
          502,
          'payment_provider_unavailable',
          'The payment provider refused or did not answer the refund. Nothing was refunded; try again in a minute.',
        );
      }
      await complete(actor, payment, refund, providerRefundId);
      return summary(payment.id);
    },

    refundCredit,

    /**
     * Reserves the server's own refund of part of a payment in the caller's transaction, so it
     * commits with the change that owes it (a second subscription refused, a cancellation now);
     * `refundCredit` with the same `refundId` then asks the provider, after the commit. At most what
     * is left to refund; nothing when nothing is left, or when it was reserved already.
     */
    async reserveCredit(trx: DbOrTransaction, input: RefundCreditInput): Promise<number> {
      const earlier = await findRefundAmount(trx, input.refundId);
      if (earlier) return Number(earlier.amount_minor);
      await lockPayment(trx, input.paymentId);
      const payment = await findPaymentForRefund(trx, input.paymentId);
      if (!payment || payment.status !== 'paid') return 0;
      const amount = Math.min(
        input.amountMinor,
        Number(payment.amount_minor) - (await reservedOfPayment(trx, payment.id)),
      );
      if (amount <= 0) return 0;
      await reserveIn(
        trx,
        null,
        payment.id,
        { amount, reason: input.reason, license_action: 'keep' },
        input.refundId,
      );
      return amount;
    },

    /**
     * The server's own refunds still pending a while after they were reserved (the provider did not
     * answer, or the server stopped before asking): asked again, each under its own id. The scheduler
     * runs it; a refund younger than `PENDING_RETRY_AFTER_MS` is left to the request that reserved it.
     */
    async retryPending(): Promise<number> {
      const before = new Date(clock.now().getTime() - PENDING_RETRY_AFTER_MS).toISOString();
      const pending = await pendingServerRefunds(db, before, 100);
      let done = 0;
      for (const row of pending) {
        try {
          await refundCredit({
            paymentId: row.payment_id,
            amountMinor: Number(row.amount_minor),
            reason: row.reason ?? '',
            refundId: row.id,
          });
          done++;
        } catch (error) {
          log.warn({ err: error, refundId: row.id }, 'a pending refund failed again; retried later');
        }
      }
      return done;
    },
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;
