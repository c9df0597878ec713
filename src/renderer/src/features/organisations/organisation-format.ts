import type {
  InvitationStatus,
  Organisation,
  OrganisationRole,
  OrganisationSeats,
} from '../../../../shared/api/organisations';
import type { StatusTone } from '../../components/data/status-badge';

export const ROLE_LABELS: Record<OrganisationRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
};

/** What each role may do, in a line: shown where a role is chosen. */
export const ROLE_DESCRIPTIONS: Record<'admin' | 'member', string> = {
  admin: 'Invites and removes people, assigns seats, buys seats and edits billing details',
  member: 'Uses a seat and sees the organisation and its members',
};

export const INVITATION_STATUS: Record<InvitationStatus, { label: string; tone: StatusTone }> = {
  pending: { label: 'Pending', tone: 'info' },
  accepted: { label: 'Accepted', tone: 'positive' },
  revoked: { label: 'Revoked', tone: 'neutral' },
  expired: { label: 'Expired', tone: 'caution' },
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** "2 of 3 seats used"; "No seats yet" before the organisation buys any. */
export const seatsUsedText = (seats: OrganisationSeats | null): string =>
  seats ? `${seats.assigned} of ${plural(seats.bought, 'seat')} used` : 'No seats yet';

/** "1 pending invitation", or nothing when there is none. */
export const pendingText = (seats: OrganisationSeats | null): string | null =>
  seats && seats.pending_invitations > 0
    ? `${plural(seats.pending_invitations, 'pending invitation')}`
    : null;

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

export const membersText = (count: number) => plural(count, 'member');
