import type {
  BackendUsageBatchRequest,
  BackendUsageBatchResponse,
  UsageEventResult,
} from '../../../shared/api/usage.js';
import { licenseNotFound } from '../licenses/access.js';
import { findLicenseById } from '../licenses/repository.js';
import { effectiveStatus } from '../licenses/views.js';
import { usageReport } from './usage-report.js';
import { reportUsage, type UsageDeps } from './report-usage.js';

type BackendEvent = BackendUsageBatchRequest['events'][number];

/**
 * The vendor's AI backend: it reports the use it served under any license, with a platform token
 * limited to `usage:write`, and reads a license's use with `usage:read`.
 */
export function createBackendUsageService(deps: UsageDeps) {
  const { db, clock } = deps;
  /** One license's events of the batch, each answered at its place in the batch. */
  async function reportFor(licenseId: string, events: { index: number; event: BackendEvent }[]) {
    const license = await findLicenseById(db, licenseId);
    const status = license ? effectiveStatus(license, clock.now()) : undefined;
    if (!license || status !== 'active') {
      const [code, message] = license
        ? ['license_inactive', `License ${licenseId} is ${status}; its use is not counted`]
        : ['license_not_found', `No license ${licenseId}`];
      return events.map(({ index, event }) => ({
        index,
        result: { id: event.id, outcome: 'refused' as const, code, message },
      }));
    }
    // The backend serves the license's holder; their account is who used it.
    // The same deps as the desktop's batches: the catalogue's cached plans, and the allowance notices.
    const answer = await reportUsage(
      deps,
      license,
      license.user_id,
      events.map(({ event }) => event),
      // The backend's answer has no features (the counters are not read back after the batch), and
      // it serves the license as a whole: no member's cap applies to what it reports.
      { features: false, member: false },
    );
    return answer.results.map((result, position) => ({ index: events[position]!.index, result }));
  }

  return {
    async report(events: BackendEvent[]): Promise<BackendUsageBatchResponse> {
      const byLicense = new Map<string, { index: number; event: BackendEvent }[]>();
      for (const [index, event] of events.entries()) {
        const list = byLicense.get(event.license_id) ?? [];
        list.push({ index, event });
        byLicense.set(event.license_id, list);
      }
      const results: (UsageEventResult & { license_id: string })[] = [];
      for (const [licenseId, list] of byLicense)
        for (const { index, result } of await reportFor(licenseId, list))
          results[index] = { ...result, license_id: licenseId };
      return {
        counted: results.filter((result) => result.outcome === 'counted').length,
        duplicates: results.filter((result) => result.outcome === 'duplicate').length,
        refused: results.filter((result) => result.outcome === 'refused').length,
        results,
      };
    },

    /** Any license's use this period per feature, and per day over the last `days`, from the rollups. */
    async usage(licenseId: string, days: number) {
      const row = await findLicenseById(db, licenseId);
      if (!row) throw licenseNotFound();
      return usageReport(db, row, days, clock.now(), {
        planFeatures: deps.planFeatures,
        planCurrency: deps.planCurrency,
      });
    },
  };
}

export type BackendUsageService = ReturnType<typeof createBackendUsageService>;
