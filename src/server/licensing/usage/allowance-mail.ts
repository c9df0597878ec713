import { portalPaths } from '../../../shared/routes.js';
import { findUserById, mailLanguage, wantsMail } from '../../identity/index.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { allowanceMail } from '../../platform/mail/usage-mails.js';
import type { AllowanceEvent } from '../events.js';
import { planCurrency } from './plan-currency.js';

/** The Usage page showing the license. */
const usagePageUrl = (publicUrl: string, licenseId: string) => {
  const url = new URL(portalPaths.usage, publicUrl);
  url.searchParams.set('license', licenseId);
  return url.toString();
};

/**
 * The mail an allowance's 80 % and 100 % bring the license's holder (when their billing mail is
 * on): licensing queues it on the `usage.allowance_*` it announces, in the counting's transaction.
 */
export function createAllowanceMail({ mailer, publicUrl }: { mailer: Mailer; publicUrl: string }) {
  return async (trx: DbOrTransaction, { type, license, allowance }: AllowanceEvent): Promise<void> => {
    const owner = await findUserById(trx, license.user_id);
    if (!owner || !wantsMail(owner, 'billing')) return;
    const { overage } = allowance;
    await mailer.queue(
      trx,
      allowanceMail({
        to: owner.email,
        name: owner.full_name,
        language: mailLanguage(owner),
        licenseKey: license.license_key,
        featureName: allowance.featureName,
        unit: allowance.unit,
        period: allowance.period,
        used: allowance.used,
        limit: allowance.limit,
        resetsAt: allowance.periodEnd,
        overage:
          overage.policy === 'stop' || overage.price_minor === null
            ? { policy: 'stop' }
            : {
                policy: overage.policy,
                priceMinor: overage.price_minor,
                perUnits: overage.per_units,
                currency: await planCurrency(trx, license.plan_id),
                cap: overage.cap,
              },
        reached: type === 'usage.allowance_reached',
        usageUrl: usagePageUrl(publicUrl, license.id),
        unsubscribeUrl: mailer.unsubscribeUrl(owner.id, 'billing'),
      }),
    );
  };
}
