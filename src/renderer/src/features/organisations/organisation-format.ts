import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type {
  InvitationStatus,
  Organisation,
  OrganisationRole,
  OrganisationSeats,
} from '../../../../shared/api/organisations';
import type { StatusTone } from '../../components/data/status-badge';
import { formattingLocale } from '../../lib/i18n/portal-i18n';

/** Each role's name, translated where it is shown (`i18n._(ROLE_LABELS[role])`). */
export const ROLE_LABELS: Record<OrganisationRole, MessageDescriptor> = {
  owner: msg`Owner`,
  admin: msg`Admin`,
  member: msg`Member`,
};

/** What each role may do, in a line: shown where a role is chosen. */
export const ROLE_DESCRIPTIONS: Record<'admin' | 'member', MessageDescriptor> = {
  admin: msg`Invites and removes people, assigns seats, buys seats and edits billing details`,
  member: msg`Uses a seat and sees the organization and its members`,
};

export const INVITATION_STATUS: Record<InvitationStatus, { label: MessageDescriptor; tone: StatusTone }> = {
  pending: { label: msg`Pending`, tone: 'info' },
  accepted: { label: msg`Accepted`, tone: 'positive' },
  revoked: { label: msg`Revoked`, tone: 'neutral' },
  expired: { label: msg`Expired`, tone: 'caution' },
};

/**
 * "2 of 3 seats used"; on a floating plan "3 floating seats (at once)", since no one holds a named
 * seat; "No seats yet" before the organisation buys any. In the language shown (called in render).
 */
export function seatsUsedText(seats: OrganisationSeats | null): string {
  if (!seats) return t`No seats yet`;
  if (seats.floating) {
    const concurrent = seats.floating.concurrent;
    return t`${plural(concurrent, { one: '# floating seat (at once)', other: '# floating seats (at once)' })}`;
  }
  const assigned = seats.assigned;
  const bought = seats.bought;
  return t`${assigned} of ${plural(bought, { one: '# seat used', other: '# seats used' })}`;
}

/** "1 pending invitation", or nothing when there is none. */
export function pendingText(seats: OrganisationSeats | null): string | null {
  if (!seats || seats.pending_invitations === 0) return null;
  const pending = seats.pending_invitations;
  return t`${plural(pending, { one: '# pending invitation', other: '# pending invitations' })}`;
}

/** Seats neither held nor promised to a pending invitation: how many more people can be invited. */
export const freeSeats = (seats: OrganisationSeats | null): number =>
  seats ? Math.max(0, seats.bought - seats.assigned - seats.pending_invitations) : 0;

/**
 * Whether the caller manages the organisation: its owner and admins, and a platform administrator
 * (who has no role in it) acting for support.
 */
export const canManage = (organisation: Pick<Organisation, 'role'>): boolean =>
  organisation.role !== 'member';

/** Only the owner (or a platform administrator) hands the organisation to someone else. */
export const canTransfer = (organisation: Pick<Organisation, 'role'>): boolean =>
  organisation.role === 'owner' || organisation.role === null;

export const membersText = (count: number) => t`${plural(count, { one: '# member', other: '# members' })}`;

/*
 * Dates as the other screens write them (in the language shown), written here rather than taken from the licenses feature:
 * its index brings the license screens' state and plan cards along, which the invitation page (a
 * newcomer's first page) would download for three dates.
 */
const dateFormat = () => new Intl.DateTimeFormat(formattingLocale(), { dateStyle: 'medium' });
const dateTimeFormat = () =>
  new Intl.DateTimeFormat(formattingLocale(), { dateStyle: 'medium', timeStyle: 'short' });
const relativeFormat = () => new Intl.RelativeTimeFormat(formattingLocale(), { numeric: 'auto' });
const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

/** "Dec 4, 2026". */
export const formatDate = (iso: string) => dateFormat().format(new Date(iso));
/** "Dec 4, 2026, 10:00 AM". */
export const formatDateTime = (iso: string) => dateTimeFormat().format(new Date(iso));

/** "5 minutes ago", "yesterday", "just now". */
export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of RELATIVE_STEPS)
    if (Math.abs(seconds) >= size) return relativeFormat().format(Math.round(seconds / size), unit);
  return t`just now`;
}
