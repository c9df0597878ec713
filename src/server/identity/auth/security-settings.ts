import type { SecuritySettings } from '../../../shared/api/two-factor.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { conflict } from '../../platform/http-error.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../../platform/security-log/service.js';
import { readSecuritySettings, writeSecuritySettings } from './security-settings-repository.js';
import { hasSecondFactor } from './two-factor-service.js';

/** The platform's security settings administrators may change. */
export function createSecuritySettingsService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    read: (): Promise<SecuritySettings> => readSecuritySettings(db),

    /**
     * Replaces the settings. Requiring two-factor of administrators is refused to one who has
     * none yet: they would lock themselves out of the setting they just changed.
     */
    change: (actor: AdminActor, settings: SecuritySettings): Promise<SecuritySettings> =>
      db.transaction().execute(async (trx) => {
        if (settings.require_admin_two_factor && !(await hasSecondFactor(trx, actor.id)))
          throw conflict(
            'two_factor_required_first',
            'Set up two-factor sign-in for your own account before requiring it of every administrator.',
          );
        const before = await readSecuritySettings(trx);
        const after = await writeSecuritySettings(trx, clock, settings);
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.securitySettingsChanged,
          severity: 'warning',
          userId: null,
          details: { before, after },
        });
        return after;
      }),
  };
}

export type SecuritySettingsService = ReturnType<typeof createSecuritySettingsService>;
