import { utc } from '../../../shared/dates.js';
import { portalPaths } from '../../../shared/routes.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PlanRow, SubscriptionRow, UserRow } from '../../platform/db/tables.js';
import {
  duplicateSubscriptionRefundedMail,
  gracePeriodEndingMail,
  licenseExpiredMail,
  licenseSuspendedMail,
  paymentFailedMail,
  renewalReminderMail,
  subscriptionCancelledMail,
  subscriptionPauseEndedMail,
  subscriptionPausedMail,
  subscriptionResumedMail,
} from '../../platform/mail/customer-mails.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { mailI18n } from '../../platform/mail/mail-i18n.js';
import { findUserById, mailLanguage, wantsMail } from '../../identity/index.js';
import { findLicenseById } from '../../licensing/index.js';
import { findPlanIn } from '../../catalogue/index.js';
import type { CyclePricing } from './cycle-amount.js';
import type { CancelledMoney, RefusedCharge, SubscriptionEvent } from '../events.js';
import { takeNotice } from '../../platform/scheduled-notices.js';
import { dueForReminders } from './repository.js';

/** Days before the grace period ends that the customer is warned the license will be suspended. */
const GRACE_WARNING_DAYS = 2;
/** Subscriptions looked at per reminder pass. */
const BATCH = 500;

/**
 * The customer's mail about their subscription, queued in the transaction of the change it tells
 * of (so it is sent exactly when the change commits), and the reminders time brings, each given
 * once however often, and on however many servers, the scheduler runs. Each change's notice is
 * heard on its event (billing's context subscribes them): a declined renewal and the end of a
 * period on their webhook events, a cancellation asked for, a resumption, a refused second
 * subscription and a suspension on the notices billing announces to itself only
 * (`SubscriptionNotice`). A paid charge's receipt is not here: it follows the payment's
 * `payment.paid` (`invoices/receipts.ts`).
 */
export function createSubscriptionNotices({
  db,
  clock,
  mailer,
  publicUrl,
  reminderDays,
  pricing,
}: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  publicUrl: string;
  /** Days before a yearly renewal that the customer is reminded of it. */
  reminderDays: number;
  pricing: CyclePricing;
}) {
  const link = (path: string) => new URL(path, publicUrl).toString();
  const subscriptionUrl = link(portalPaths.subscriptions);

  /** The account and plan a mail is about; nothing is sent for an account that was deleted. */
  async function parties(trx: DbOrTransaction, subscription: SubscriptionRow) {
    const user = subscription.user_id ? await findUserById(trx, subscription.user_id) : undefined;
    const plan = await findPlanIn(trx, subscription.plan_id, subscription.currency);
    if (!user || !plan) return undefined;
    return { user, plan, to: { to: user.email, name: user.full_name, language: mailLanguage(user) } };
  }

  const nextAmount = async (trx: DbOrTransaction, plan: PlanRow, subscription: SubscriptionRow) => ({
    amountMinor: (await pricing.amountOf(trx, subscription, plan, subscription.cycles + 1)).amountMinor,
    currency: plan.currency,
  });

  async function licenseOf(
    trx: DbOrTransaction,
    subscription: SubscriptionRow,
  ): Promise<LicenseRow | undefined> {
    return subscription.license_id ? findLicenseById(trx, subscription.license_id) : undefined;
  }

  /** Gives a reminder once: the notice row and the mail commit together or not at all. */
  async function remindOnce(
    subject: SubscriptionRow,
    kind: string,
    occasion: string,
    mail: (
      user: UserRow,
      plan: PlanRow,
      to: { to: string; name: string | null; language: string },
      amount: { amountMinor: number; currency: string },
    ) => Parameters<Mailer['queue']>[1] | undefined,
  ): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const found = await parties(trx, subject);
      const message = found
        ? mail(found.user, found.plan, found.to, await nextAmount(trx, found.plan, subject))
        : undefined;
      if (!message) return false;
      if (!(await takeNotice(trx, { subjectId: subject.id, kind, occasion, at: clock.now().toISOString() })))
        return false;
      await mailer.queue(trx, message);
      return true;
    });
  }

  return {
    /**
     * A declined renewal, heard on `subscription.past_due`: announced on the first failure of a
     * period only (the retries say nothing new).
     */
    async pastDue(trx: DbOrTransaction, { subscription, declined }: SubscriptionEvent): Promise<void> {
      if (!declined || !subscription.grace_ends_at) return;
      const found = await parties(trx, subscription);
      if (!found) return;
      await mailer.queue(
        trx,
        paymentFailedMail({
          ...found.to,
          amountMinor: Number(declined.amount_minor),
          currency: declined.currency,
          planName: found.plan.name,
          reason: declined.failure_reason,
          nextRetryAt: subscription.next_retry_at,
          graceEndsAt: subscription.grace_ends_at,
          subscriptionUrl,
        }),
      );
    },

    async suspended(trx: DbOrTransaction, subscription: SubscriptionRow, license: LicenseRow | undefined) {
      const found = await parties(trx, subscription);
      if (!found || !license) return;
      const i18n = mailI18n(found.to.language);
      await mailer.queue(
        trx,
        licenseSuspendedMail({
          ...found.to,
          planName: found.plan.name,
          licenseKey: license.license_key,
          reason: i18n._({
            id: 'mail.licenseSuspended.reasonUnpaid',
            message: 'The payment for your subscription failed and its grace period has ended.',
          }),
          fixUrl: subscriptionUrl,
        }),
      );
    },

    /**
     * The period of a subscription cancelled at its end is over: the license has expired. Heard on
     * `subscription.cancelled`, of which only the lifecycle's end says `periodOver`.
     */
    async ended(trx: DbOrTransaction, { subscription, periodOver }: SubscriptionEvent) {
      if (!periodOver) return;
      const found = await parties(trx, subscription);
      const license = await licenseOf(trx, subscription);
      if (!found || !license) return;
      await mailer.queue(
        trx,
        licenseExpiredMail({
          ...found.to,
          planName: found.plan.name,
          licenseKey: license.license_key,
          expiredAt: subscription.ended_at ?? clock.now(),
          renewUrl: link(portalPaths.purchase),
        }),
      );
    },

    /** A second subscription to the same plan was paid: not started, its payment refunded. */
    async refused(trx: DbOrTransaction, charge: RefusedCharge): Promise<void> {
      const found = await parties(trx, charge.subscription);
      if (!found) return;
      await mailer.queue(
        trx,
        duplicateSubscriptionRefundedMail({
          ...found.to,
          amountMinor: Number(charge.payment.amount_minor),
          currency: charge.payment.currency,
          planName: found.plan.name,
          paidAt: charge.payment.paid_at ?? clock.now(),
          subscriptionUrl,
        }),
      );
    },

    /** A cancellation, with what it refunded (the unused period, the kept credit) and what it could not. */
    async cancelled(trx: DbOrTransaction, subscription: SubscriptionRow, money: CancelledMoney) {
      const found = await parties(trx, subscription);
      if (!found) return;
      const immediately = subscription.status === 'cancelled';
      await mailer.queue(
        trx,
        subscriptionCancelledMail({
          ...found.to,
          planName: found.plan.name,
          endsAt: (immediately ? subscription.ended_at : subscription.current_period_end) ?? clock.now(),
          immediately,
          ...money,
          // Canceled before its first charge: a card trial's, which runs to the trial's end.
          ...(subscription.trial_ends_at !== null && subscription.cycles === 0
            ? { trialEndsAt: subscription.trial_ends_at }
            : {}),
          subscriptionUrl,
        }),
      );
    },

    /** A cancellation at period end was taken back: what the next charge is, and when. */
    async resumed(trx: DbOrTransaction, subscription: SubscriptionRow) {
      const found = await parties(trx, subscription);
      if (!found || !subscription.current_period_end) return;
      await mailer.queue(
        trx,
        subscriptionResumedMail({
          ...found.to,
          ...(await nextAmount(trx, found.plan, subscription)),
          planName: found.plan.name,
          renewsAt: subscription.current_period_end,
          subscriptionUrl,
        }),
      );
    },

    /**
     * A pause was asked for (heard on `subscription.paused`). A confirmation of the customer's (or
     * an administrator's) change, so sent whatever the optional mail preferences say.
     */
    async paused(trx: DbOrTransaction, subscription: SubscriptionRow) {
      const found = await parties(trx, subscription);
      if (!found || !subscription.pause_resumes_at || subscription.pause_periods === null) return;
      await mailer.queue(
        trx,
        subscriptionPausedMail({
          ...found.to,
          planName: found.plan.name,
          periods: subscription.pause_periods,
          startsAt: subscription.current_period_end ?? subscription.pause_resumes_at,
          resumesAt: subscription.pause_resumes_at,
          subscriptionUrl,
        }),
      );
    },

    /** A pause ended, or one to come was withdrawn (heard on `subscription.resumed`). */
    async pauseEnded(trx: DbOrTransaction, subscription: SubscriptionRow, withdrawn: boolean) {
      const found = await parties(trx, subscription);
      if (!found) return;
      await mailer.queue(
        trx,
        subscriptionPauseEndedMail({
          ...found.to,
          planName: found.plan.name,
          withdrawn,
          renewsAt: withdrawn ? subscription.current_period_end : null,
          subscriptionUrl,
        }),
      );
    },

    /**
     * The reminders due now: a yearly renewal coming up (optional mail, `billing`), and a grace
     * period about to end. Due ones missed while no server ran are sent on the next pass, unless
     * what they announce has already happened.
     */
    async sendReminders(): Promise<number> {
      const now = clock.now();
      const renewBefore = utc(now).add(reminderDays, 'day').toISOString();
      const graceBefore = utc(now).add(GRACE_WARNING_DAYS, 'day').toISOString();
      const due = await dueForReminders(db, { now: now.toISOString(), renewBefore, graceBefore }, BATCH);
      let sent = 0;
      for (const subscription of due) {
        const given =
          subscription.status === 'active'
            ? await remindOnce(
                subscription,
                'renewal_reminder',
                subscription.current_period_end ?? '',
                (user, plan, to, amount) =>
                  wantsMail(user, 'billing') && subscription.current_period_end
                    ? renewalReminderMail({
                        ...to,
                        ...amount,
                        planName: plan.name,
                        renewsAt: subscription.current_period_end,
                        subscriptionUrl,
                        unsubscribeUrl: mailer.unsubscribeUrl(user.id, 'billing'),
                      })
                    : undefined,
              )
            : await remindOnce(
                subscription,
                'grace_ending',
                subscription.grace_ends_at ?? '',
                (_user, plan, to, amount) =>
                  subscription.grace_ends_at
                    ? gracePeriodEndingMail({
                        ...to,
                        ...amount,
                        planName: plan.name,
                        graceEndsAt: subscription.grace_ends_at,
                        subscriptionUrl,
                      })
                    : undefined,
              );
        if (given) sent++;
      }
      return sent;
    },
  };
}

export type SubscriptionNotices = ReturnType<typeof createSubscriptionNotices>;
