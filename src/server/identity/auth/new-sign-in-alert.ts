import { isIP } from 'node:net';
import Bowser from 'bowser';
import { portalPaths } from '../../../shared/routes.js';
import { utc } from '../../../shared/dates.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { newSignInMail } from '../../platform/mail/customer-mails.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { portalLink } from './answers.js';
import {
  forgetSignInSourcesBefore,
  hasSignInSources,
  noteSignInSource,
} from './sign-in-sources-repository.js';
import { mailLanguage, wantsMail } from '../users/mail-preferences.js';
import { UNKNOWN_BROWSER, UNKNOWN_DEVICE, deviceName } from '../../../shared/device-names.js';

/**
 * "A sign-in from a new device or address": one whose device (browser and system, versions left
 * out so an update is not a new device) or network (the address's /24, or /64 for IPv6, so a
 * router handing out the next address is not a new one) the account has not signed in from
 * in the last {@link SIGN_IN_MEMORY_DAYS} days. An account with no sign-in on record (its first
 * after registering, or its first since this was kept) is never alerted: there is nothing to
 * compare with yet.
 */
export const SIGN_IN_MEMORY_DAYS = 90;

/** "Chrome on Linux"; versions are left out. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent?.trim()) return UNKNOWN_DEVICE;
  const parser = Bowser.getParser(userAgent);
  return deviceName(parser.getBrowserName() || UNKNOWN_BROWSER, parser.getOSName() || undefined);
}

/** The network an address belongs to: "203.0.113.0/24" or "2001:db8:1:2::/64". */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  if (isIP(address) === 4) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIP(address) !== 6) return address;
  // Expanded to eight groups ("::" filled with zeros), of which the first four are the network.
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = [
    ...headGroups,
    ...Array(8 - headGroups.length - tailGroups.length).fill('0'),
    ...tailGroups,
  ];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Records where the account signed in from and, when that is new and the owner wants security
 * alerts, queues the alert in the sign-in's own transaction.
 */
export async function alertOnNewSignIn(
  trx: DbOrTransaction,
  deps: { clock: Clock; mailer: Mailer; publicUrl: string },
  user: UserRow,
  meta: RequestMeta,
): Promise<void> {
  const now = isoNow(deps.clock);
  const device = deviceOf(meta.userAgent);
  const hasHistory = await hasSignInSources(trx, user.id);
  const cutoff = utc(deps.clock.now()).subtract(SIGN_IN_MEMORY_DAYS, 'day').toISOString();
  await forgetSignInSourcesBefore(trx, user.id, cutoff);
  const newDevice = await noteSignInSource(trx, { userId: user.id, kind: 'device', value: device, now });
  const newNetwork = await noteSignInSource(trx, {
    userId: user.id,
    kind: 'network',
    value: networkOf(meta.ip),
    now,
  });
  if (!hasHistory || !(newDevice || newNetwork) || !wantsMail(user, 'security_alerts')) return;
  await deps.mailer.queue(
    trx,
    newSignInMail({
      to: user.email,
      name: user.full_name,
      language: mailLanguage(user),
      device,
      ipAddress: meta.ip,
      signedInAt: now,
      resetPasswordUrl: portalLink(deps.publicUrl, portalPaths.forgotPassword),
      unsubscribeUrl: deps.mailer.unsubscribeUrl(user.id, 'security_alerts'),
    }),
  );
}
