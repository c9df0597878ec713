import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';
import { organisationParamsSchema } from './organisations.js';

/**
 * Where the proof of a domain is published: a TXT record at this label under the domain, so it
 * never collides with the domain's own TXT records (SPF and the like).
 */
export const DOMAIN_PROOF_LABEL = '_desktop-ai-verification';
/** How the record's value starts; the rest is the claim's own random token. */
export const DOMAIN_PROOF_PREFIX = 'desktop-ai-domain-verification=';

/** The most domains one organisation may claim: enough for a company's brands, not a list of the internet's. */
export const MAX_ORGANISATION_DOMAINS = 20;

/**
 * Addresses anyone can get: a claim on one of them would route strangers into the organisation,
 * so they are refused whatever DNS says.
 */
export const PUBLIC_MAIL_DOMAINS: readonly string[] = [
  'aol.com',
  'gmail.com',
  'gmx.com',
  'gmx.de',
  'googlemail.com',
  'hotmail.com',
  'icloud.com',
  'live.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'outlook.com',
  'proton.me',
  'protonmail.com',
  'rediffmail.com',
  'web.de',
  'yahoo.com',
  'yandex.ru',
  'zoho.com',
];

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A domain as people type it: trimmed, lower case, without a trailing dot. */
export const domainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/\.$/, ''))
  .pipe(
    z
      .string()
      .min(1, 'domain is required')
      .max(253, 'domain must be at most 253 characters')
      .refine(
        (value) => !/[/:@\s]/.test(value),
        'Enter the domain alone, e.g. example.com, without https:// or an address',
      )
      .refine(
        (value) => value.includes('.') && value.split('.').every((label) => LABEL.test(label)),
        'Not a domain name: use letters, digits and hyphens between dots, e.g. example.com',
      )
      .refine((value) => !/^\d+(\.\d+){3}$/.test(value), 'An IP address is not a domain')
      .refine(
        (value) => !PUBLIC_MAIL_DOMAINS.includes(value),
        'Addresses at this domain are open to anyone: claim your own company’s domain',
      ),
  );

export const ORGANISATION_DOMAIN_STATUSES = ['pending', 'verified'] as const;

export const organisationDomainSchema = z
  .object({
    id: z.string(),
    domain: z.string(),
    status: z
      .enum(ORGANISATION_DOMAIN_STATUSES)
      .describe('pending until its TXT record has been found; only a verified domain routes anyone'),
    record_name: z.string().describe('Where to publish the TXT record (the full name)'),
    record_value: z.string().describe('The TXT record’s exact value'),
    created_at: isoDateTimeSchema,
    verified_at: isoDateTimeSchema.nullable(),
    checked_at: isoDateTimeSchema.nullable().describe('When DNS was last asked'),
    check_failure: z
      .string()
      .nullable()
      .describe('What the last check found instead of the record; null once verified or never checked'),
  })
  .meta({ id: 'OrganisationDomain' });
export type OrganisationDomain = z.infer<typeof organisationDomainSchema>;

export const organisationDomainListSchema = z
  .object({ domains: z.array(organisationDomainSchema) })
  .meta({ id: 'OrganisationDomainList' });
export type OrganisationDomainList = z.infer<typeof organisationDomainListSchema>;

export const addOrganisationDomainBodySchema = z.strictObject({ domain: domainNameSchema });
export type AddOrganisationDomainBody = z.input<typeof addOrganisationDomainBodySchema>;

export const organisationDomainParamsSchema = organisationParamsSchema.extend({
  domainId: z.uuid('Not a domain id'),
});
