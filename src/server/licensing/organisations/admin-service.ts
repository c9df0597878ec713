import type { z } from 'zod';
import type {
  adminOrganisationDetailSchema,
  adminOrganisationListQuerySchema,
  adminOrganisationSummarySchema,
} from '../../../shared/api/organisations.js';
import type { Paged } from '../../../shared/api/paging.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { OrganisationRow } from '../../platform/db/tables-organisations.js';
import { organisationNotFound } from './access.js';
import {
  findOrganisation,
  findOrganisationSubscription,
  findOwner,
  listInvitations,
  listMembers,
  listOrganisations,
} from './repository.js';
import { invitationView, memberViews, organisationView } from './views.js';

type AdminOrganisationSummary = z.infer<typeof adminOrganisationSummarySchema>;
type AdminOrganisationDetail = z.infer<typeof adminOrganisationDetailSchema>;

/** The administrators' view of every organisation: to find one, and to see its members, invitations and subscription. */
export function createAdminOrganisationsService({ db, clock }: { db: Db; clock: Clock }) {
  async function summary(row: OrganisationRow, nowIso: string): Promise<AdminOrganisationSummary> {
    return {
      ...(await organisationView(db, row, null, nowIso)),
      owner_email: (await findOwner(db, row.id))?.email ?? null,
    };
  }

  return {
    async list(
      query: z.output<typeof adminOrganisationListQuerySchema>,
    ): Promise<Paged<AdminOrganisationSummary>> {
      const now = isoNow(clock);
      const page = await listOrganisations(db, query);
      return { ...page, data: await Promise.all(page.data.map((row) => summary(row, now))) };
    },

    async detail(organisationId: string): Promise<AdminOrganisationDetail> {
      const row = await findOrganisation(db, organisationId);
      if (!row) throw organisationNotFound();
      const now = isoNow(clock);
      const subscription = await findOrganisationSubscription(db, organisationId);
      return {
        ...(await summary(row, now)),
        members: await memberViews(db, organisationId, await listMembers(db, organisationId)),
        invitations: (await listInvitations(db, organisationId)).map((invitation) =>
          invitationView(invitation, now),
        ),
        subscription: subscription
          ? {
              id: subscription.id,
              status: subscription.status,
              plan_name: subscription.plan_name,
              seats: subscription.seats,
              current_period_end: subscription.current_period_end,
            }
          : null,
      };
    },
  };
}

export type AdminOrganisationsService = ReturnType<typeof createAdminOrganisationsService>;
