import { PRODUCT_NAME } from '../../shared/constants.js';
import { portalPaths } from '../../shared/routes.js';
import type { DbOrTransaction } from '../platform/db/database.js';
import { licenseRevokedMail } from '../platform/mail/customer-mails.js';
import type { Mailer } from '../platform/mail/mailer.js';
import type { LicenseEvent } from '../licensing/index.js';
import { findPlanRowByIdOrCode } from '../catalogue/index.js';
import { findUserById, mailLanguage, portalLink } from '../identity/index.js';

/**
 * The owner's mail when an administrator revokes a license, with the reason they gave: admin's
 * context queues it on the `license.revoked` it announces, in the revocation's transaction, so the
 * owner is told exactly when the revocation holds. A refund's revocation is billing's to tell.
 */
export function createRevokedLicenseMail({ mailer, publicUrl }: { mailer: Mailer; publicUrl: string }) {
  return async (trx: DbOrTransaction, { license, byAdministrator }: LicenseEvent): Promise<void> => {
    if (!byAdministrator) return;
    const owner = await findUserById(trx, license.user_id);
    const plan = await findPlanRowByIdOrCode(trx, license.plan_id);
    if (!owner) return;
    await mailer.queue(
      trx,
      licenseRevokedMail({
        to: owner.email,
        name: owner.full_name,
        language: mailLanguage(owner),
        planName: plan?.name ?? PRODUCT_NAME,
        licenseKey: license.license_key,
        reason: license.revoked_reason ?? '',
        revokedAt: license.revoked_at ?? license.updated_at,
        supportUrl: portalLink(publicUrl, portalPaths.support),
      }),
    );
  };
}
