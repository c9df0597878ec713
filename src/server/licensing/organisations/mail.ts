import type { AssignableOrganisationRole } from '../../../shared/api/organisations.js';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { portalPaths } from '../../../shared/routes.js';
import { composeMail } from '../../platform/mail/compose.js';
import { greeting } from '../../platform/mail/customer-mails.js';
import { formatCount, formatDateTime } from '../../platform/mail/formatting.js';
import { type MailI18n, mailI18n } from '../../platform/mail/mail-i18n.js';
import type { MailMessage } from '../../platform/mail/message.js';
import { mailKinds } from '../../platform/mail/templates.js';

/*
 * The organisations' mail, each in its recipient's language (`language`: the account's
 * `preferences.language`; an invitation to an address without an account is in English).
 * Organisation and people's names are data, as they are.
 */

/**
 * The invitation link: the token rides in the fragment, which browsers never send, so no server
 * or proxy log on the way keeps it.
 */
export const invitationLink = (publicUrl: string, token: string): string =>
  `${publicUrl}${portalPaths.acceptInvitation}#token=${encodeURIComponent(token)}`;

/**
 * Who sent an invitation: a person's name (or address), the organisation's identity provider
 * (SCIM provisioning), or `null` for an administrator acting for the organisation.
 */
export type Inviter = string | { identityProvider: true } | null;

const inviterName = (inviter: Inviter, organisation: string, i18n: MailI18n): string =>
  typeof inviter === 'string'
    ? inviter
    : inviter
      ? i18n._(
          { id: 'mail.invitation.identityProvider', message: '{organisation}’s identity provider' },
          { organisation },
        )
      : i18n._({ id: 'mail.invitation.anAdministrator', message: 'An administrator' });

/** An invitation to join an organisation, with the one link that accepts it. */
export const invitationMail = (input: {
  to: string;
  language?: string | null | undefined;
  organisationName: string;
  inviter: Inviter;
  role: AssignableOrganisationRole;
  link: string;
  expiresAt: string;
}): MailMessage => {
  const i18n = mailI18n(input.language);
  const organisation = input.organisationName;
  const inviter = inviterName(input.inviter, organisation, i18n);
  const values = { inviter, organisation, product: PRODUCT_NAME };
  return composeMail({
    kind: mailKinds.organisationInvitation,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.invitation.subject', message: 'Join {organisation} on {product}' },
      { organisation, product: PRODUCT_NAME },
    ),
    content: {
      preview: i18n._(
        { id: 'mail.invitation.preview', message: '{inviter} invited you to {organisation}.' },
        { inviter, organisation },
      ),
      heading: i18n._({ id: 'mail.invitation.heading', message: 'Join {organisation}' }, { organisation }),
      body: [
        {
          paragraph:
            input.role === 'admin'
              ? i18n._(
                  {
                    id: 'mail.invitation.bodyAdmin',
                    message:
                      '{inviter} invited you to join {organisation} on {product} as an administrator. Joining gives you a seat on its license: you then activate the app by signing in.',
                  },
                  values,
                )
              : i18n._(
                  {
                    id: 'mail.invitation.bodyMember',
                    message:
                      '{inviter} invited you to join {organisation} on {product} as a member. Joining gives you a seat on its license: you then activate the app by signing in.',
                  },
                  values,
                ),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.invitation.action', message: 'Accept the invitation' }),
        url: input.link,
      },
      after: [
        {
          note: i18n._(
            {
              id: 'mail.invitation.expiry',
              message:
                'The link works once, until {moment}. Without an account yet, you create one from the link. If you did not expect this, ignore this message.',
            },
            { moment: formatDateTime(input.expiresAt, i18n.locale) },
          ),
        },
      ],
    },
  });
};

/** Where an organisation's members and seats are managed. */
export const organisationLink = (publicUrl: string, organisationId: string): string =>
  new URL(
    portalPaths.organisationDetail.replace(':organisationId', encodeURIComponent(organisationId)),
    publicUrl,
  ).toString();

function seatFreed(hadSeat: boolean, machinesEnded: number, i18n: MailI18n): string {
  if (!hadSeat)
    return i18n._({
      id: 'mail.memberRemoved.noSeat',
      message: 'You held no seat on its license, so none of your machines is affected.',
    });
  if (machinesEnded === 0)
    return i18n._({ id: 'mail.memberRemoved.seatFreed', message: 'Your seat on its license is freed.' });
  return i18n._(
    {
      id: 'mail.memberRemoved.seatAndMachines',
      message:
        'Your seat on its license is freed, and {machines, plural, one {the machine} other {the # machines}} you activated with it stop working at the next license check.',
    },
    { machines: machinesEnded },
  );
}

/** To a member an administrator removed: their seat is gone, and so are their machines on it. */
export const memberRemovedMail = (input: {
  to: string;
  name: string | null;
  language?: string | null | undefined;
  organisationName: string;
  /** Who removed them: a name or an address; `null` for an administrator of the platform, not named. */
  removedBy: string | null;
  hadSeat: boolean;
  machinesEnded: number;
  /** Where they may buy a license of their own. */
  purchaseUrl: string;
}): MailMessage => {
  const i18n = mailI18n(input.language);
  const organisation = input.organisationName;
  const removedBy =
    input.removedBy ??
    i18n._(
      { id: 'mail.memberRemoved.platformAdministrator', message: 'An administrator of {product}' },
      { product: PRODUCT_NAME },
    );
  return composeMail({
    kind: mailKinds.organisationMemberRemoved,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.memberRemoved.subject', message: 'You were removed from {organisation} on {product}' },
      { organisation, product: PRODUCT_NAME },
    ),
    content: {
      preview: i18n._(
        { id: 'mail.memberRemoved.preview', message: '{removedBy} removed you from {organisation}.' },
        { removedBy, organisation },
      ),
      heading: i18n._(
        { id: 'mail.memberRemoved.heading', message: 'You are no longer a member of {organisation}' },
        { organisation },
      ),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.memberRemoved.body',
              message: '{removedBy} removed you from {organisation} on {product}.',
            },
            { removedBy, organisation, product: PRODUCT_NAME },
          ),
        },
        { paragraph: seatFreed(input.hadSeat, input.machinesEnded, i18n) },
        {
          paragraph: i18n._({
            id: 'mail.memberRemoved.accountStays',
            message:
              'Your account stays yours. To keep using the app, buy a license of your own or ask the organization to invite you again.',
          }),
        },
      ],
      action: { label: i18n._({ id: 'mail.action.seePlans', message: 'See plans' }), url: input.purchaseUrl },
      after: [
        {
          note: i18n._({
            id: 'mail.memberRemoved.mistake',
            message: 'If you think this is a mistake, contact the organization’s administrators.',
          }),
        },
      ],
    },
  });
};

/** To the owner: someone accepted an invitation and took a seat. */
export const memberJoinedMail = (input: {
  to: string;
  name: string | null;
  language?: string | null | undefined;
  organisationName: string;
  /** The new member: a name and address, or the address. */
  member: string;
  role: AssignableOrganisationRole;
  seatsHeld: number;
  seats: number;
  organisationUrl: string;
}): MailMessage => {
  const i18n = mailI18n(input.language);
  const { member } = input;
  const organisation = input.organisationName;
  const seatsTaken = i18n._(
    { id: 'mail.memberJoined.seatsTaken', message: '{held} of {seats}' },
    { held: formatCount(input.seatsHeld, i18n.locale), seats: formatCount(input.seats, i18n.locale) },
  );
  const heading = i18n._(
    { id: 'mail.memberJoined.subject', message: '{member} joined {organisation}' },
    { member, organisation },
  );
  return composeMail({
    kind: mailKinds.organisationMemberJoined,
    to: input.to,
    i18n,
    subject: heading,
    content: {
      preview: i18n._(
        {
          id: 'mail.memberJoined.preview',
          message: '{held} of {seats, plural, one {# seat is} other {# seats are}} now taken.',
        },
        { held: formatCount(input.seatsHeld, i18n.locale), seats: input.seats },
      ),
      heading,
      body: [
        greeting(input.name, i18n),
        {
          paragraph:
            input.role === 'admin'
              ? i18n._(
                  {
                    id: 'mail.memberJoined.bodyAdmin',
                    message:
                      '{member} accepted the invitation to {organisation} and joined as an administrator, with a seat on its license.',
                  },
                  { member, organisation },
                )
              : i18n._(
                  {
                    id: 'mail.memberJoined.bodyMember',
                    message:
                      '{member} accepted the invitation to {organisation} and joined as a member, with a seat on its license.',
                  },
                  { member, organisation },
                ),
        },
        {
          details: [
            { label: i18n._({ id: 'mail.label.member', message: 'Member' }), value: member },
            {
              label: i18n._({ id: 'mail.label.role', message: 'Role' }),
              value:
                input.role === 'admin'
                  ? i18n._({ id: 'mail.role.administrator', message: 'Administrator' })
                  : i18n._({ id: 'mail.role.member', message: 'Member' }),
            },
            { label: i18n._({ id: 'mail.label.seatsTaken', message: 'Seats taken' }), value: seatsTaken },
          ],
        },
      ],
      action: {
        label: i18n._({ id: 'mail.memberJoined.action', message: 'View members' }),
        url: input.organisationUrl,
      },
      after: [
        {
          note: i18n._({
            id: 'mail.memberJoined.why',
            message:
              'You receive this because you own the organization. If you did not expect this member, remove them on its page.',
          }),
        },
      ],
    },
  });
};
