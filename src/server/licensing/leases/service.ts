import type { LicensingSettings } from '../../../shared/api/licenses.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../../platform/security-log/service.js';
import { readLicensingSettings, writeLicensingSettings } from './repository.js';

/** The licensing settings administrators may change (the seat reclaim window). */
export function createLicensingSettingsService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    read: (): Promise<LicensingSettings> => readLicensingSettings(db),

    /** Replaces the settings; the audit keeps what they were and what they became. */
    change: (actor: AdminActor, settings: LicensingSettings): Promise<LicensingSettings> =>
      db.transaction().execute(async (trx) => {
        const before = await readLicensingSettings(trx);
        const after = await writeLicensingSettings(trx, clock, settings);
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.licensingSettingsChanged,
          severity: 'warning',
          userId: null,
          details: { before, after },
        });
        return after;
      }),
  };
}

export type LicensingSettingsService = ReturnType<typeof createLicensingSettingsService>;
