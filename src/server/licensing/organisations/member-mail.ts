import { portalPaths } from '../../../shared/routes.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { findUserById, mailLanguage } from '../../identity/index.js';
import type { OrganisationEvent } from '../events.js';
import { memberJoinedMail, memberRemovedMail, organisationLink } from './mail.js';
import { findOwner } from './repository.js';
import { countAssignedSeats } from './seats-repository.js';

/**
 * The mail a member's joining or removal brings: licensing's context queues it on the
 * `organisation.member_joined` and `organisation.member_removed` it announces, in the change's
 * transaction, so the services that join and remove name no mail.
 */
export function createMemberMail({ mailer, publicUrl }: { mailer: Mailer; publicUrl: string }) {
  return {
    /** The owner learns who joined and how many seats are taken now; not an owner joining their own. */
    async joined(trx: DbOrTransaction, { organisation, joined }: OrganisationEvent): Promise<void> {
      if (!joined) return;
      const { member, role, seats } = joined;
      const owner = await findOwner(trx, organisation.id);
      if (!owner || owner.user_id === member.id) return;
      const account = await findUserById(trx, owner.user_id);
      await mailer.queue(
        trx,
        memberJoinedMail({
          to: owner.email,
          name: owner.full_name,
          language: account ? mailLanguage(account) : null,
          organisationName: organisation.name,
          member: member.full_name ? `${member.full_name} (${member.email})` : member.email,
          role,
          seatsHeld: await countAssignedSeats(trx, organisation.id),
          seats,
          organisationUrl: organisationLink(publicUrl, organisation.id),
        }),
      );
    },

    /** A removed member learns their seat and machines on it are gone; one who left is not told. */
    async removed(trx: DbOrTransaction, { organisation, removal }: OrganisationEvent): Promise<void> {
      if (!removal) return;
      const removed = await findUserById(trx, removal.memberId);
      if (!removed) return;
      await mailer.queue(
        trx,
        memberRemovedMail({
          to: removed.email,
          name: removed.full_name,
          language: mailLanguage(removed),
          organisationName: organisation.name,
          // A platform administrator acting as the owner is not named to the customer.
          removedBy: removal.by ? (removal.by.full_name ?? removal.by.email) : null,
          hadSeat: removal.hadSeat,
          machinesEnded: removal.machinesEnded,
          purchaseUrl: new URL(portalPaths.purchase, publicUrl).toString(),
        }),
      );
    },
  };
}
