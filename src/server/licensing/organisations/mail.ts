import type { AssignableOrganisationRole } from '../../../shared/api/organisations.js';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { portalPaths } from '../../../shared/routes.js';
import { composeMail } from '../../platform/mail/compose.js';
import { formatDateTime } from '../../platform/mail/formatting.js';
import type { MailMessage } from '../../platform/mail/message.js';
import { mailKinds } from '../../platform/mail/templates.js';

/**
 * The invitation link: the token rides in the fragment, which browsers never send, so no server
 * or proxy log on the way keeps it.
 */
export const invitationLink = (publicUrl: string, token: string): string =>
  `${publicUrl}${portalPaths.acceptInvitation}#token=${encodeURIComponent(token)}`;

/** An invitation to join an organisation, with the one link that accepts it. */
export const invitationMail = (input: {
  to: string;
  organisationName: string;
  inviter: string | null;
  role: AssignableOrganisationRole;
  link: string;
  expiresAt: string;
}): MailMessage =>
  composeMail({
    kind: mailKinds.organisationInvitation,
    to: input.to,
    subject: `Join ${input.organisationName} on ${PRODUCT_NAME}`,
    content: {
      preview: `${input.inviter ?? 'An administrator'} invited you to ${input.organisationName}.`,
      heading: `Join ${input.organisationName}`,
      body: [
        {
          paragraph:
            `${input.inviter ?? 'An administrator'} invited you to join ${input.organisationName} on ` +
            `${PRODUCT_NAME} as ${input.role === 'admin' ? 'an administrator' : 'a member'}. ` +
            'Joining gives you a seat on its license: you then activate the app by signing in.',
        },
      ],
      action: { label: 'Accept the invitation', url: input.link },
      after: [
        {
          note:
            `The link works once, until ${formatDateTime(input.expiresAt)}. Without an account yet, ` +
            'you create one from the link. If you did not expect this, ignore this message.',
        },
      ],
    },
  });

/** Where an organisation's members and seats are managed. */
export const organisationLink = (publicUrl: string, organisationId: string): string =>
  new URL(
    portalPaths.organisationDetail.replace(':organisationId', encodeURIComponent(organisationId)),
    publicUrl,
  ).toString();

const hello = (name: string | null) => ({ paragraph: name?.trim() ? `Hello ${name.trim()},` : 'Hello,' });

function seatFreed(hadSeat: boolean, machinesEnded: number): string {
  if (!hadSeat) return 'You held no seat on its license, so none of your machines is affected.';
  if (machinesEnded === 0) return 'Your seat on its license is freed.';
  const machines = machinesEnded === 1 ? 'the machine' : `the ${machinesEnded} machines`;
  return `Your seat on its license is freed, and ${machines} you activated with it stop working at the next license check.`;
}

/** To a member an administrator removed: their seat is gone, and so are their machines on it. */
export const memberRemovedMail = (input: {
  to: string;
  name: string | null;
  organisationName: string;
  /** Who removed them: a name or an address. */
  removedBy: string;
  hadSeat: boolean;
  machinesEnded: number;
  /** Where they may buy a license of their own. */
  purchaseUrl: string;
}): MailMessage =>
  composeMail({
    kind: mailKinds.organisationMemberRemoved,
    to: input.to,
    subject: `You were removed from ${input.organisationName} on ${PRODUCT_NAME}`,
    content: {
      preview: `${input.removedBy} removed you from ${input.organisationName}.`,
      heading: `You are no longer a member of ${input.organisationName}`,
      body: [
        hello(input.name),
        {
          paragraph: `${input.removedBy} removed you from ${input.organisationName} on ${PRODUCT_NAME}.`,
        },
        { paragraph: seatFreed(input.hadSeat, input.machinesEnded) },
        {
          paragraph:
            'Your account stays yours. To keep using the app, buy a license of your own or ask the organization to invite you again.',
        },
      ],
      action: { label: 'See plans', url: input.purchaseUrl },
      after: [{ note: 'If you think this is a mistake, contact the organization’s administrators.' }],
    },
  });

/** To the owner: someone accepted an invitation and took a seat. */
export const memberJoinedMail = (input: {
  to: string;
  name: string | null;
  organisationName: string;
  /** The new member: a name and address, or the address. */
  member: string;
  role: AssignableOrganisationRole;
  seatsHeld: number;
  seats: number;
  organisationUrl: string;
}): MailMessage =>
  composeMail({
    kind: mailKinds.organisationMemberJoined,
    to: input.to,
    subject: `${input.member} joined ${input.organisationName}`,
    content: {
      preview: `${input.seatsHeld} of ${input.seats} seats are now taken.`,
      heading: `${input.member} joined ${input.organisationName}`,
      body: [
        hello(input.name),
        {
          paragraph: `${input.member} accepted the invitation to ${input.organisationName} and joined as ${
            input.role === 'admin' ? 'an administrator' : 'a member'
          }, with a seat on its license.`,
        },
        {
          details: [
            { label: 'Member', value: input.member },
            { label: 'Role', value: input.role === 'admin' ? 'Administrator' : 'Member' },
            { label: 'Seats taken', value: `${input.seatsHeld} of ${input.seats}` },
          ],
        },
      ],
      action: { label: 'View members', url: input.organisationUrl },
      after: [
        {
          note: 'You receive this because you own the organization. If you did not expect this member, remove them on its page.',
        },
      ],
    },
  });
