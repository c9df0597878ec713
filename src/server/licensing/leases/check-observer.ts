import type { LicenseCheckStatus } from '../../../shared/api/licenses.js';
import { HttpError } from '../../platform/http-error.js';

/** How a license check ended: `active`, the status a refusal names, or `error` (a server fault). */
export type LicenseCheckResult = LicenseCheckStatus | 'error';

/** Told of every license check's result (the composition counts them for the metrics). */
export type LicenseCheckObserver = (result: LicenseCheckResult) => void;

/** The result a check's refusal carries (`revoked`, `not_activated`, …), else `error`. */
export function resultOfRefusal(error: unknown): LicenseCheckResult {
  const status = error instanceof HttpError ? error.extra.status : undefined;
  return typeof status === 'string' ? (status as LicenseCheckStatus) : 'error';
}
