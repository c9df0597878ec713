import { utc } from '../../../shared/dates.js';
import { portalPaths } from '../../../shared/routes.js';
import { mailLanguage, wantsMail } from '../../identity/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { trialEndingMail, trialExpiredMail } from '../../platform/mail/trial-mails.js';
import { takeNotice } from '../../platform/scheduled-notices.js';
import type { LicensingEvents } from '../events.js';
import { findLicenseById } from '../licenses/repository.js';
import { trialsEndingBetween } from './repository.js';

/** Trials looked at per pass and kind. */
const BATCH = 500;
/** The first reminder, this many days before the end. */
export const TRIAL_REMINDER_DAYS = 3;
/** A trial that ended longer ago than this while no server ran is not announced any more. */
const CATCH_UP_DAYS = 30;

type Due = Awaited<ReturnType<typeof trialsEndingBetween>>[number];

/** A card trial's first charge, still to come: what its subscription will charge, and when. */
export interface TrialCharge {
  amountMinor: number;
  currency: string;
  at: string;
}

/**
 * The first charge still to come of a card trial's subscription, or undefined when none will be
 * made (canceled, declined, no subscription): billing's, supplied at composition since licensing
 * may not use billing.
 */
export type TrialChargeLookup = (
  db: DbOrTransaction,
  subscriptionId: string,
  now: Date,
) => Promise<TrialCharge | undefined>;

/**
 * The free trials' scheduled work, by the server's clock: a reminder three days before the end and
 * another on the last day (each `license.trial_ending`), and at the end `license.trial_expired` with
 * its mail. Each is given once per trial and end (an administrator's extension is a new end),
 * however often and on however many servers this runs; a reminder whose day passed while no
 * server ran is skipped for the next one.
 */
export function createTrialNotices({
  db,
  clock,
  events,
  mailer,
  publicUrl,
  trialCharge,
}: {
  db: Db;
  clock: Clock;
  events: LicensingEvents;
  mailer: Mailer;
  publicUrl: string;
  /** A card trial's coming first charge, so that its reminder says the card will be charged. */
  trialCharge?: TrialChargeLookup;
}) {
  const manageUrl = new URL(portalPaths.subscriptions, publicUrl).toString();
  const chargeOf = async (trial: Due) =>
    trial.subscription_id && trialCharge ? trialCharge(db, trial.subscription_id, clock.now()) : undefined;

  const buyUrl = (trial: Due) => {
    const url = new URL(portalPaths.purchase, publicUrl);
    url.searchParams.set('plan', trial.plan_id);
    return url.toString();
  };

  /** Gives one notice of a trial, its mail (if any) and its event, in one transaction; false if given before. */
  const giveOnce = (
    trial: Due,
    kind: string,
    event: 'license.trial_ending' | 'license.trial_expired',
    message: Parameters<Mailer['queue']>[1] | null,
  ): Promise<boolean> =>
    db.transaction().execute(async (trx) => {
      const taken = await takeNotice(trx, {
        subjectId: trial.id,
        kind,
        occasion: trial.trial_ends_at ?? '',
        at: clock.now().toISOString(),
      });
      if (!taken) return false;
      if (message) await mailer.queue(trx, message);
      const license = await findLicenseById(trx, trial.id);
      if (license) await events.publish(trx, { type: event, license });
      return true;
    });

  const reminder = (trial: Due, endsAt: string, lastDay: boolean, charge: TrialCharge | undefined) =>
    wantsMail({ preferences: trial.preferences }, 'billing')
      ? trialEndingMail({
          to: trial.email,
          name: trial.full_name,
          language: mailLanguage({ preferences: trial.preferences }),
          planName: trial.plan_name,
          licenseKey: trial.license_key,
          endsAt,
          buyUrl: buyUrl(trial),
          lastDay,
          unsubscribeUrl: mailer.unsubscribeUrl(trial.user_id, 'billing'),
          ...(charge ? { charge: { ...charge, manageUrl } } : {}),
        })
      : null;

  return {
    async run(): Promise<number> {
      const now = clock.now();
      const nowIso = now.toISOString();
      const lastDayFrom = utc(now).add(1, 'day').toISOString();
      let given = 0;
      // Ending within a day: the last day's reminder. Within three days: the first reminder.
      for (const trial of await trialsEndingBetween(db, nowIso, lastDayFrom, BATCH)) {
        const endsAt = trial.trial_ends_at as string;
        const mail = reminder(trial, endsAt, true, await chargeOf(trial));
        if (await giveOnce(trial, 'trial_last_day', 'license.trial_ending', mail)) given++;
      }
      const soonTo = utc(now).add(TRIAL_REMINDER_DAYS, 'day').toISOString();
      for (const trial of await trialsEndingBetween(db, lastDayFrom, soonTo, BATCH)) {
        const endsAt = trial.trial_ends_at as string;
        const mail = reminder(trial, endsAt, false, await chargeOf(trial));
        if (await giveOnce(trial, 'trial_ending', 'license.trial_ending', mail)) given++;
      }
      const endedFrom = utc(now).subtract(CATCH_UP_DAYS, 'day').toISOString();
      for (const trial of await trialsEndingBetween(db, endedFrom, nowIso, BATCH)) {
        // A card trial whose first charge is still to come (Razorpay reports it some minutes
        // after the end) has not ended unpaid: told only if that charge fails or is canceled.
        if (await chargeOf(trial)) continue;
        const endsAt = trial.trial_ends_at as string;
        const message = trialExpiredMail({
          to: trial.email,
          name: trial.full_name,
          language: mailLanguage({ preferences: trial.preferences }),
          planName: trial.plan_name,
          licenseKey: trial.license_key,
          endsAt,
          buyUrl: buyUrl(trial),
        });
        if (await giveOnce(trial, 'trial_expired', 'license.trial_expired', message)) given++;
      }
      return given;
    },
  };
}
