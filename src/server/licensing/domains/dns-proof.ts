import { Resolver } from 'node:dns/promises';
import { DOMAIN_PROOF_LABEL } from '../../../shared/api/organisation-domains.js';

/** What asking DNS for a domain's proof found: the TXT values there, or why there are none. */
export type ProofLookup =
  | { found: true; values: string[] }
  | { found: false; reason: 'no_record' | 'no_domain' | 'unreachable'; detail: string };

export type LookUpProof = (domain: string) => Promise<ProofLookup>;

/** Where the proof of `domain` is published. */
export const proofRecordName = (domain: string) => `${DOMAIN_PROOF_LABEL}.${domain}`;

/** A DNS question answered within this, or the check says the servers did not answer. */
const LOOKUP_TIMEOUT_MS = 3_000;
const LOOKUP_TRIES = 2;

/**
 * Looks up the proof's TXT records through `servers` (the machine's own resolvers when undefined).
 * A TXT record may be split into strings of 255 characters; they are joined back, as DNS means.
 */
export function createProofLookup(servers: readonly string[] | undefined): LookUpProof {
  return async (domain) => {
    const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: LOOKUP_TRIES });
    if (servers) resolver.setServers(servers);
    const name = proofRecordName(domain);
    try {
      const records = await resolver.resolveTxt(name);
      return { found: true, values: records.map((parts) => parts.join('')) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENODATA')
        return { found: false, reason: 'no_record', detail: `No TXT record at ${name}` };
      if (code === 'ENOTFOUND')
        return { found: false, reason: 'no_domain', detail: `${name} does not exist in DNS` };
      return {
        found: false,
        reason: 'unreachable',
        detail: `The DNS servers did not answer for ${name} (${code ?? 'error'})`,
      };
    }
  };
}
