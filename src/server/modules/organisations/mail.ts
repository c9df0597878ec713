import type { AssignableOrganisationRole } from '../../../shared/api/organisations.js';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { portalPaths } from '../../../shared/routes.js';
import { composeMail } from '../../mail/compose.js';
import { formatDateTime } from '../../mail/formatting.js';
import type { MailMessage } from '../../mail/message.js';
import { mailKinds } from '../../mail/templates.js';

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
