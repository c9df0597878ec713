import type { LicensingEvents } from '../events.js';
import { utc } from '../../../shared/dates.js';
import { findLicenseById, oneOffLicensesExpiringBetween } from './repository.js';
import { portalPaths } from '../../../shared/routes.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { licenseExpiredMail, licenseExpiringSoonMail } from '../../platform/mail/customer-mails.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { mailLanguage, wantsMail } from '../../identity/index.js';
import { takeNotice } from '../../platform/scheduled-notices.js';

/** Licenses looked at per pass and kind. */
const BATCH = 500;
/** An expiry missed for longer than this while no server ran is not announced any more. */
const CATCH_UP_DAYS = 30;

/**
 * The mail about licenses bought once (no subscription) that run out: "expiring soon" some days
 * before (optional mail, the `billing` preference) and "expired" when they have. Subscriptions'
 * licenses are told about by their subscription's own mail. Each is given once per license and
 * expiry, however often and on however many servers this runs; one missed while no server ran is
 * given on the next pass.
 */
export function createLicenseExpiryNotices({
  db,
  clock,
  events,
  mailer,
  publicUrl,
  reminderDays,
}: {
  db: Db;
  clock: Clock;
  /** Announces each license as it expires. */
  events: LicensingEvents;
  mailer: Mailer;
  publicUrl: string;
  /** Days before the expiry that the owner is told it is coming. */
  reminderDays: number;
}) {
  const renewUrl = new URL(portalPaths.purchase, publicUrl).toString();

  /** One-off licenses whose expiry lies in (from, to], with their owner and plan. */
  const expiringBetween = (from: string, to: string) => oneOffLicensesExpiringBetween(db, from, to, BATCH);

  type Due = Awaited<ReturnType<typeof expiringBetween>>[number];

  async function notifyOnce(
    license: Due,
    kind: string,
    message: Parameters<Mailer['queue']>[1],
  ): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const taken = await takeNotice(trx, {
        subjectId: license.id,
        kind,
        occasion: license.expires_at ?? '',
        at: clock.now().toISOString(),
      });
      if (taken) await mailer.queue(trx, message);
      if (taken && kind === 'license_expired') {
        const row = await findLicenseById(trx, license.id);
        if (row) await events.publish(trx, { type: 'license.expired', license: row });
      }
      return taken;
    });
  }

  return {
    async run(): Promise<number> {
      const now = clock.now();
      let sent = 0;
      const soon = await expiringBetween(now.toISOString(), utc(now).add(reminderDays, 'day').toISOString());
      for (const license of soon) {
        if (!license.expires_at || !wantsMail({ preferences: license.preferences }, 'billing')) continue;
        const message = licenseExpiringSoonMail({
          to: license.email,
          name: license.full_name,
          language: mailLanguage({ preferences: license.preferences }),
          planName: license.plan_name,
          licenseKey: license.license_key,
          expiresAt: license.expires_at,
          renewUrl,
          unsubscribeUrl: mailer.unsubscribeUrl(license.user_id, 'billing'),
        });
        if (await notifyOnce(license, 'license_expiring', message)) sent++;
      }
      const ended = await expiringBetween(
        utc(now).subtract(CATCH_UP_DAYS, 'day').toISOString(),
        now.toISOString(),
      );
      for (const license of ended) {
        if (!license.expires_at) continue;
        const message = licenseExpiredMail({
          to: license.email,
          name: license.full_name,
          language: mailLanguage({ preferences: license.preferences }),
          planName: license.plan_name,
          licenseKey: license.license_key,
          expiredAt: license.expires_at,
          renewUrl,
        });
        if (await notifyOnce(license, 'license_expired', message)) sent++;
      }
      return sent;
    },
  };
}
