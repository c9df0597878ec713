import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AddOrganisationDomainBody,
  DOMAIN_PROOF_PREFIX,
  MAX_ORGANISATION_DOMAINS,
  type OrganisationDomain,
  type OrganisationDomainList,
} from '../../../shared/api/organisation-domains.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { UserRow } from '../../platform/db/tables.js';
import type { OrganisationDomainRow } from '../../platform/db/tables-organisations.js';
import { conflict, forbidden, notFound } from '../../platform/http-error.js';
import { securityEventTypes, type SecurityEventType } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { assertManages, organisationAccess, type OrganisationAccess } from '../organisations/access.js';
import type { OrganisationActor } from '../organisations/service.js';
import { type LookUpProof, proofRecordName } from './dns-proof.js';
import {
  countDomainClaims,
  deleteDomainClaim,
  domainsOfOrganisation,
  findDomainClaim,
  findVerifiedClaim,
  insertDomainClaim,
  markDomainVerified,
  recordFailedCheck,
} from './repository.js';

export interface OrganisationDomainsDeps {
  db: Db;
  clock: Clock;
  lookUpProof: LookUpProof;
}

const proofValue = (row: OrganisationDomainRow) => `${DOMAIN_PROOF_PREFIX}${row.token}`;

export const toDomainView = (row: OrganisationDomainRow): OrganisationDomain => ({
  id: row.id,
  domain: row.domain,
  status: row.verified_at === null ? 'pending' : 'verified',
  record_name: proofRecordName(row.domain),
  record_value: proofValue(row),
  created_at: row.created_at,
  verified_at: row.verified_at,
  checked_at: row.checked_at,
  check_failure: row.check_failure,
});

const domainNotFound = () => notFound('domain_not_found', 'This organization has not claimed that domain');
const claimedElsewhere = (domain: string) =>
  conflict(
    'domain_claimed',
    `Another organization has already verified ${domain}. If it is yours, ask our support to look into it.`,
  );

function assertOwner(access: OrganisationAccess): void {
  if (!access.ownerPowers)
    throw forbidden('owner_only', 'Only the owner may claim, verify or remove the organization’s domains.');
}

/**
 * The mail domains an organisation claims, each proven by a TXT record with a token of its own.
 * Owners and admins see them; the owner (or a platform administrator) adds, checks and removes
 * them. DNS is asked outside any transaction; what it found is then written in one, where the
 * database's one verified claim per domain settles two organisations proving it at once.
 */
export function createOrganisationDomainsService({ db, clock, lookUpProof }: OrganisationDomainsDeps) {
  async function record(
    trx: DbOrTransaction,
    type: SecurityEventType,
    actor: OrganisationActor,
    claim: OrganisationDomainRow,
  ) {
    await recordSecurityEvent(trx, clock, {
      type,
      severity: 'warning',
      userId: actor.user.id,
      actorId: actor.user.id,
      meta: actor.meta,
      details: { organisation_id: claim.organisation_id, domain: claim.domain, domain_id: claim.id },
    });
  }

  return {
    async list(organisationId: string, caller: UserRow): Promise<OrganisationDomainList> {
      assertManages(await organisationAccess(db, organisationId, caller));
      return { domains: (await domainsOfOrganisation(db, organisationId)).map(toDomainView) };
    },

    async add(
      organisationId: string,
      actor: OrganisationActor,
      body: AddOrganisationDomainBody,
    ): Promise<OrganisationDomain> {
      const domain = body.domain;
      try {
        return await db.transaction().execute(async (trx) => {
          assertOwner(await organisationAccess(trx, organisationId, actor.user));
          const verified = await findVerifiedClaim(trx, domain);
          if (verified?.organisation_id === organisationId)
            throw conflict('domain_already_added', `${domain} is already verified for this organization`);
          if (verified) throw claimedElsewhere(domain);
          if ((await countDomainClaims(trx, organisationId)) >= MAX_ORGANISATION_DOMAINS)
            throw conflict(
              'too_many_domains',
              `An organization may claim at most ${MAX_ORGANISATION_DOMAINS} domains; remove one first.`,
            );
          const claim: OrganisationDomainRow = {
            id: randomUUID(),
            organisation_id: organisationId,
            domain,
            token: randomBytes(24).toString('base64url'),
            verified_domain: null,
            created_by: actor.user.id,
            created_at: isoNow(clock),
            verified_at: null,
            checked_at: null,
            check_failure: null,
          };
          await insertDomainClaim(trx, claim);
          await record(trx, securityEventTypes.organisationDomainAdded, actor, claim);
          return toDomainView(claim);
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw conflict('domain_already_added', `${domain} is already claimed by this organization`);
        throw error;
      }
    },

    /**
     * Asks DNS for the claim's TXT record. Found: the claim is verified (409 `domain_claimed` when
     * another organisation verified the domain first). Not found: the claim stays pending with what
     * DNS said instead, which the answer carries; that is not an error of the request.
     */
    async verify(
      organisationId: string,
      domainId: string,
      actor: OrganisationActor,
    ): Promise<OrganisationDomain> {
      assertOwner(await organisationAccess(db, organisationId, actor.user));
      const before = await findDomainClaim(db, organisationId, domainId);
      if (!before) throw domainNotFound();
      if (before.verified_at !== null) return toDomainView(before);
      const lookup = await lookUpProof(before.domain);
      const proven = lookup.found && lookup.values.includes(proofValue(before));
      const failure = lookup.found
        ? `The TXT records at ${proofRecordName(before.domain)} do not include ${proofValue(before)}`
        : lookup.detail;
      try {
        return await db.transaction().execute(async (trx) => {
          const claim = await findDomainClaim(trx, organisationId, domainId);
          if (!claim) throw domainNotFound();
          if (claim.verified_at !== null) return toDomainView(claim);
          const at = isoNow(clock);
          if (!proven) {
            await recordFailedCheck(trx, claim.id, at, failure);
            return toDomainView({ ...claim, checked_at: at, check_failure: failure });
          }
          if (await findVerifiedClaim(trx, claim.domain)) throw claimedElsewhere(claim.domain);
          await markDomainVerified(trx, claim.id, claim.domain, at);
          await record(trx, securityEventTypes.organisationDomainVerified, actor, claim);
          return toDomainView({
            ...claim,
            verified_domain: claim.domain,
            verified_at: at,
            checked_at: at,
            check_failure: null,
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw claimedElsewhere(before.domain);
        throw error;
      }
    },

    async remove(organisationId: string, domainId: string, actor: OrganisationActor): Promise<void> {
      await db.transaction().execute(async (trx) => {
        assertOwner(await organisationAccess(trx, organisationId, actor.user));
        const claim = await findDomainClaim(trx, organisationId, domainId);
        if (!claim) throw domainNotFound();
        await deleteDomainClaim(trx, claim.id);
        await record(trx, securityEventTypes.organisationDomainRemoved, actor, claim);
      });
    },
  };
}

export type OrganisationDomainsService = ReturnType<typeof createOrganisationDomainsService>;
