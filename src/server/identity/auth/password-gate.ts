import { HttpError } from '../../platform/http-error.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';

/** An address whose organisation signs it in through its own provider and refuses passwords. */
export interface SsoRequirement {
  organisationId: string;
  organisationName: string;
}

/**
 * Says whether an address must sign in through single sign-on (licensing holds the organisations),
 * read `within` the caller's transaction when it has one.
 */
export type SsoRequirementLookup = (
  email: string,
  within?: DbOrTransaction,
) => Promise<SsoRequirement | null>;

/**
 * Where a context above identity tells the password sign-in who may not use it. Identity is
 * built first, so the lookup is handed in once the context that knows is registered; until then
 * (or in a suite without it) every address may use its password.
 */
export interface PasswordGate {
  use(lookup: SsoRequirementLookup): void;
  requirementFor(email: string, within?: DbOrTransaction): Promise<SsoRequirement | null>;
}

export function createPasswordGate(): PasswordGate {
  let lookup: SsoRequirementLookup | undefined;
  return {
    use(given) {
      lookup = given;
    },
    async requirementFor(email, within) {
      return lookup ? lookup(email, within) : null;
    },
  };
}

/** A sign-in or reset, other than through the provider, of an address whose organisation requires it. */
export const ssoRequiredError = (requirement: SsoRequirement) =>
  new HttpError(
    403,
    'sso_required',
    `${requirement.organisationName} signs you in through its identity provider: continue with single sign-on.`,
    {},
    { organisation_id: requirement.organisationId, organisation_name: requirement.organisationName },
  );

/**
 * The gate for a way in other than the provider (a passkey, a password reset): 403 `sso_required`
 * for an account of a domain whose organisation requires single sign-on. A platform administrator
 * passes (break-glass): the requirement is answered so the caller logs it with what it did.
 */
export async function passSsoGate(
  gate: PasswordGate | undefined,
  user: Pick<UserRow, 'email' | 'role'>,
): Promise<SsoRequirement | null> {
  const requirement = (await gate?.requirementFor(user.email)) ?? null;
  if (requirement && user.role !== 'admin') throw ssoRequiredError(requirement);
  return requirement;
}
