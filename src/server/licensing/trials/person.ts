import { sha256 } from '../../platform/crypto.js';

/** Providers that deliver mail whatever dots the address's name holds (and whose two domains are one). */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The address a person's mail reaches, whatever variant they typed: lower case, no `+tag`, and
 * for Gmail no dots and one domain. Two accounts whose addresses give the same key are one
 * person, who gets one trial of a plan.
 */
export function personKey(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  let name = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = name.indexOf('+');
  if (plus > 0) name = name.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) {
    name = name.replaceAll('.', '');
    domain = dotless;
  }
  return `${name}@${domain}`;
}

/** What a trial keeps of the person: the key's SHA-256, not the address. */
export const personHash = (email: string): string => sha256(personKey(email));
