import type { LicenseCheckStatus, LicenseStatus } from '../../../shared/api/licenses.js';
import type { ActivationRow, LicenseRow } from '../../platform/db/tables.js';
import { HttpError } from '../../platform/http-error.js';
import { longDateFormat } from '../usage/feature-usage.js';

const codes: Record<LicenseCheckStatus, string> = {
  invalid_key: 'invalid_license_key',
  not_found: 'license_not_found',
  revoked: 'license_revoked',
  suspended: 'license_suspended',
  expired: 'license_expired',
  trial_expired: 'trial_expired',
  not_activated: 'machine_not_activated',
  deactivated: 'machine_deactivated',
  active: 'license_active',
  paused: 'license_paused',
};

const httpStatus = (status: LicenseCheckStatus) =>
  status === 'invalid_key' ? 400 : status === 'not_found' ? 404 : 403;

/** A refused license check: the error body carries `valid: false`, the status and what to do. */
export function licenseRefusal(
  status: LicenseCheckStatus,
  message: string,
  extra: { resumes_at?: string } = {},
): HttpError {
  return new HttpError(
    httpStatus(status),
    codes[status],
    message,
    {},
    {
      valid: false,
      status,
      requires_activation: status === 'not_activated' || status === 'deactivated',
      ...extra,
    },
  );
}

export const invalidKey = () =>
  licenseRefusal(
    'invalid_key',
    'This is not a valid license key. Check it for typos: a key has 25 letters and digits in five groups of five.',
  );

export const unknownKey = () =>
  licenseRefusal('not_found', 'No license has this key. Check it, or find your keys on the Licenses page.');

const day = (iso: string) => longDateFormat.format(new Date(iso));

/** Why a license that is not active cannot be used. */
export function inactiveLicense(
  license: Pick<LicenseRow, 'revoked_reason' | 'suspended_reason' | 'expires_at'> &
    Partial<Pick<LicenseRow, 'paused_until'>>,
  status: Exclude<LicenseStatus, 'active'>,
): HttpError {
  switch (status) {
    case 'revoked': {
      // An administrator's reason may end with its own full stop: one, not "restore.. Contact support".
      const reason = license.revoked_reason?.trim().replace(/[.\s]+$/, '');
      return licenseRefusal(
        'revoked',
        `This license was revoked${reason ? `: ${reason}` : ''}. Contact support if you think this is a mistake.`,
      );
    }
    case 'suspended':
      return licenseRefusal(
        'suspended',
        license.suspended_reason ?? 'This license is suspended. Contact support to restore it.',
      );
    case 'paused': {
      const until = license.paused_until ?? null;
      return licenseRefusal(
        'paused',
        until
          ? `This license is paused: its subscription is paused until ${day(until)}, when it resumes and the license works again. Resume it sooner on the Subscriptions page.`
          : 'This license is paused with its subscription. Resume the subscription on the Subscriptions page.',
        until ? { resumes_at: until } : {},
      );
    }
    case 'trial_expired':
      return licenseRefusal(
        'trial_expired',
        `Your free trial ended${license.expires_at ? ` on ${day(license.expires_at)}` : ''}. ` +
          'Buy the plan on the Purchase page to keep using it: your license key, machines and usage stay as they are.',
      );
    case 'expired':
      return licenseRefusal(
        'expired',
        `This license expired${license.expires_at ? ` on ${day(license.expires_at)}` : ''}. Renew it on the Purchase page.`,
      );
  }
}

/**
 * Why this machine cannot use a license that is otherwise fine. `organisationName` names the
 * organisation of a team license, whose member's seat was taken back.
 */
export function machineRefusal(
  activation: ActivationRow | undefined,
  organisationName: string | null = null,
): HttpError {
  if (!activation) {
    return licenseRefusal(
      'not_activated',
      'This machine is not activated for this license. Activate it to use the license here.',
    );
  }
  if (activation.deactivated_reason === 'seat_removed') {
    const organisation = organisationName ?? 'the organization';
    return licenseRefusal(
      'deactivated',
      `Your seat in ${organisation} was taken back, so this machine is no longer activated. ` +
        `Ask ${organisation}'s administrators for a seat, then sign in and choose Activate on this machine.`,
    );
  }
  const why =
    activation.deactivated_reason === 'reclaimed'
      ? ' because it had not checked in for a long time and another machine needed its seat'
      : activation.deactivated_reason === 'admin'
        ? ' by an administrator'
        : '';
  return licenseRefusal(
    'deactivated',
    `This machine was deactivated for this license${why}. Activate it again to use it here.`,
  );
}
