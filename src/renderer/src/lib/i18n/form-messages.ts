import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { COUNTRIES } from '../../../../shared/countries';
import { countryNameIn } from '../country-names';

/**
 * The English of the shared schemas (src/shared/api, gstin.ts, eu-vat.ts) that the portal's forms
 * check with before sending, and that the server sends back as field errors: `knownText` shows
 * them in the language chosen, so the server keeps its English and the schemas stay one.
 * Fixed messages are matched whole (FORM_MESSAGES); the few built around a value (a length, a
 * count, a country) by a pattern (FORM_PATTERNS), which is simpler than giving every schema
 * structured issues for the portal to compose from, and leaves src/shared as it is. The English is
 * written out rather than imported, so this file (loaded with a language) brings no zod with it;
 * tests/renderer/i18n/form-messages.test.ts checks it against what the schemas say.
 */
export const FORM_MESSAGES: readonly (readonly [string, MessageDescriptor])[] = [
  ['Enter your e-mail address', msg({ id: 'form.emailRequired', message: 'Enter your e-mail address' })],
  ['E-mail address is too long', msg({ id: 'form.emailTooLong', message: 'E-mail address is too long' })],
  ['Enter a valid e-mail address', msg({ id: 'form.emailInvalid', message: 'Enter a valid e-mail address' })],
  ['Password is required', msg({ id: 'form.passwordRequired', message: 'Password is required' })],
  ['Password is too long', msg({ id: 'form.passwordTooLong', message: 'Password is too long' })],
  [
    'Must not contain control characters',
    msg({ id: 'form.controlCharacters', message: 'Must not contain control characters' }),
  ],
  // Billing details (shared/api/invoices.ts, gstin.ts).
  [
    'Choose a country from the list (ISO 3166-1 two-letter code, e.g. IN)',
    msg({
      id: 'form.countryNotListed',
      message: 'Choose a country from the list (ISO 3166-1 two-letter code, e.g. IN)',
    }),
  ],
  [
    'An Indian PIN code has exactly 6 digits and does not start with 0',
    msg({
      id: 'form.indianPin',
      message: 'An Indian PIN code has exactly 6 digits and does not start with 0',
    }),
  ],
  [
    'Choose a state or union territory from the GST list',
    msg({ id: 'form.indianState', message: 'Choose a state or union territory from the GST list' }),
  ],
  ['Billing name is required', msg({ id: 'form.billingNameRequired', message: 'Billing name is required' })],
  ['Address is required', msg({ id: 'form.addressRequired', message: 'Address is required' })],
  ['City is required', msg({ id: 'form.cityRequired', message: 'City is required' })],
  [
    'Postal or PIN code is required',
    msg({ id: 'form.postalCodeRequired', message: 'Postal or PIN code is required' }),
  ],
  ['Tax id is too long', msg({ id: 'form.taxIdTooLong', message: 'Tax id is too long' })],
  [
    'A GSTIN has only letters and digits',
    msg({ id: 'form.gstinCharacters', message: 'A GSTIN has only letters and digits' }),
  ],
  [
    'A GSTIN starts with a state code: 01 to 38, 97 or 99',
    msg({ id: 'form.gstinStateCode', message: 'A GSTIN starts with a state code: 01 to 38, 97 or 99' }),
  ],
  [
    'Characters 3 to 12 of a GSTIN are the PAN: 5 letters, 4 digits, 1 letter',
    msg({
      id: 'form.gstinPan',
      message: 'Characters 3 to 12 of a GSTIN are the PAN: 5 letters, 4 digits, 1 letter',
    }),
  ],
  [
    'Character 13 of a GSTIN is the entity number: 1–9 or A–Z',
    msg({ id: 'form.gstinEntity', message: 'Character 13 of a GSTIN is the entity number: 1–9 or A–Z' }),
  ],
  [
    'Character 14 of a GSTIN is always Z',
    msg({ id: 'form.gstinZ', message: 'Character 14 of a GSTIN is always Z' }),
  ],
  [
    'This GSTIN’s check character does not match: a character is probably mistyped',
    msg({
      id: 'form.gstinCheck',
      message: 'This GSTIN’s check character does not match: a character is probably mistyped',
    }),
  ],
  // Contact support (shared/api/support.ts).
  [
    'Choose one of the listed topics',
    msg({ id: 'form.supportTopic', message: 'Choose one of the listed topics' }),
  ],
  ['Write a short subject', msg({ id: 'form.supportSubject', message: 'Write a short subject' })],
  ['Describe the problem', msg({ id: 'form.supportMessage', message: 'Describe the problem' })],
  // Licenses and organizations (shared/api/licenses.ts, organisations.ts, organisation-domains.ts).
  ['Enter a license key', msg({ id: 'form.licenseKeyRequired', message: 'Enter a license key' })],
  ['This is not a license key', msg({ id: 'form.licenseKeyInvalid', message: 'This is not a license key' })],
  [
    'Give the organization a name',
    msg({ id: 'form.organisationName', message: 'Give the organization a name' }),
  ],
  ['Choose admin or member', msg({ id: 'form.organisationRole', message: 'Choose admin or member' })],
  [
    'Enter the domain alone, e.g. example.com, without https:// or an address',
    msg({
      id: 'form.domainAlone',
      message: 'Enter the domain alone, e.g. example.com, without https:// or an address',
    }),
  ],
  [
    'Not a domain name: use letters, digits and hyphens between dots, e.g. example.com',
    msg({
      id: 'form.domainInvalid',
      message: 'Not a domain name: use letters, digits and hyphens between dots, e.g. example.com',
    }),
  ],
  ['An IP address is not a domain', msg({ id: 'form.domainIp', message: 'An IP address is not a domain' })],
  [
    'Addresses at this domain are open to anyone: claim your own company’s domain',
    msg({
      id: 'form.domainPublic',
      message: 'Addresses at this domain are open to anyone: claim your own company’s domain',
    }),
  ],
  [
    'Enter a name for the machine',
    msg({ id: 'form.machineNameRequired', message: 'Enter a name for the machine' }),
  ],
  [
    'A machine name must not contain control characters',
    msg({
      id: 'form.machineNameControl',
      message: 'A machine name must not contain control characters',
    }),
  ],
  ['Enter a number of seats', msg({ id: 'form.seatsRequired', message: 'Enter a number of seats' })],
  ['Whole seats', msg({ id: 'form.seatsWhole', message: 'Whole seats' })],
  ['At least one seat', msg({ id: 'form.seatsMin', message: 'At least one seat' })],
  // Coupons (shared/api/coupons.ts).
  [
    'A coupon code has at least 3 characters',
    msg({ id: 'form.couponTooShort', message: 'A coupon code has at least 3 characters' }),
  ],
  [
    'A coupon code has at most 40 characters',
    msg({ id: 'form.couponTooLong', message: 'A coupon code has at most 40 characters' }),
  ],
  [
    'A coupon code has only letters, digits, - and _',
    msg({ id: 'form.couponCharacters', message: 'A coupon code has only letters, digits, - and _' }),
  ],
  // An organization's single sign-on (shared/api/organisation-sso.ts): its fields by their API names.
  [
    'issuer must be an https:// URL, e.g. https://login.example.com',
    msg({
      id: 'form.ssoIssuerUrl',
      message: 'issuer must be an https:// URL, e.g. https://login.example.com',
    }),
  ],
  [
    'scopes are words separated by one space',
    msg({ id: 'form.ssoScopesFormat', message: 'scopes are words separated by one space' }),
  ],
  ['scopes must include openid', msg({ id: 'form.ssoScopesOpenid', message: 'scopes must include openid' })],
  [
    'metadata_url must be an https:// URL, e.g. https://idp.example.com/metadata',
    msg({
      id: 'form.samlMetadataUrl',
      message: 'metadata_url must be an https:// URL, e.g. https://idp.example.com/metadata',
    }),
  ],
  ['metadata_xml is empty', msg({ id: 'form.samlMetadataEmpty', message: 'metadata_xml is empty' })],
  [
    'Give metadata_xml or metadata_url, not both',
    msg({ id: 'form.samlMetadataBoth', message: 'Give metadata_xml or metadata_url, not both' }),
  ],
];

/** What a pattern needs of the language shown (portal-i18n.ts hands it over). */
export interface ShownLanguageTools {
  /** A number as the language writes it. */
  number(value: number): string;
  /** An ISO timestamp as the language writes a day and time ("Jun 1, 2025, 2:32 PM"). */
  dateTime(iso: string): string;
  /** A known message within the message, translated (`knownText`). */
  known(text: string): string;
  /** The locale of the language shown ('en' for English and the pseudo-locale). */
  locale: string;
}

/** A message the schemas build around values, and the same message for the language shown. */
export interface KnownPattern {
  pattern: RegExp;
  message(match: RegExpExecArray, shown: ShownLanguageTools): MessageDescriptor;
}

/** "5,000" as the schemas write it (English digits and commas) to a number. */
const numberIn = (text: string | undefined): number => Number((text ?? '').replace(/,/g, ''));

/** Country names by their English (eu-vat.ts names the country in English). */
const countryCodes = new Map(COUNTRIES.map(({ code, name }) => [name, code]));

/** A country named in English, in `language`. */
function countryIn(english: string, language: string): string {
  const code = countryCodes.get(english);
  return code ? countryNameIn(code, language) : english;
}

export const FORM_PATTERNS: readonly KnownPattern[] = [
  {
    pattern: /^Password must be at least ([\d,]+) characters$/,
    message: (match, { number }) => {
      const min = number(numberIn(match[1]));
      return msg({ id: 'form.passwordTooShort', message: `Password must be at least ${min} characters` });
    },
  },
  {
    pattern: /^Password must be at most ([\d,]+) characters$/,
    message: (match, { number }) => {
      const max = number(numberIn(match[1]));
      return msg({ id: 'form.passwordMax', message: `Password must be at most ${max} characters` });
    },
  },
  {
    pattern: /^Must be at most ([\d,]+) characters$/,
    message: (match, { number }) => {
      const max = number(numberIn(match[1]));
      return msg({ id: 'form.atMost', message: `Must be at most ${max} characters` });
    },
  },
  {
    // A field named by its API name ("domain", "client_id"), which stays as it is.
    pattern: /^([a-z_]+) is required$/,
    message: (match) => {
      const field = match[1] ?? '';
      return msg({ id: 'form.fieldRequired', message: `${field} is required` });
    },
  },
  {
    pattern: /^([a-z_]+) must be at most ([\d,]+) characters$/,
    message: (match, { number }) => {
      const field = match[1] ?? '';
      const max = number(numberIn(match[2]));
      return msg({ id: 'form.fieldAtMost', message: `${field} must be at most ${max} characters` });
    },
  },
  {
    pattern: /^A machine name must be at most ([\d,]+) characters$/,
    message: (match, { number }) => {
      const max = number(numberIn(match[1]));
      return msg({ id: 'form.machineNameMax', message: `A machine name must be at most ${max} characters` });
    },
  },
  {
    pattern: /^At most ([\d,]+) seats$/,
    message: (match, { number }) => {
      const max = number(numberIn(match[1]));
      return msg({ id: 'form.seatsMax', message: `At most ${max} seats` });
    },
  },
  {
    pattern: /^A tax id has at most ([\d,]+) letters, digits, spaces, dots, slashes or hyphens$/,
    message: (match, { number }) => {
      const max = number(numberIn(match[1]));
      return msg({
        id: 'form.taxIdFormat',
        message: `A tax id has at most ${max} letters, digits, spaces, dots, slashes or hyphens`,
      });
    },
  },
  {
    pattern: /^A GSTIN has 15 characters; this one has (\d+)$/,
    message: (match, { number }) => {
      const count = number(numberIn(match[1]));
      return msg({ id: 'form.gstinLength', message: `A GSTIN has 15 characters; this one has ${count}` });
    },
  },
  {
    pattern: /^This is not a VAT number of (.+): it should look like (\S+)$/,
    message: (match, { locale }) => {
      const country = countryIn(match[1] ?? '', locale);
      const example = match[2] ?? '';
      return msg({
        id: 'form.vatNumber',
        message: `This is not a VAT number of ${country}: it should look like ${example}`,
      });
    },
  },
  {
    pattern: /^Keep the subject under ([\d,]+) characters$/,
    message: (match, { number }) => {
      const max = number(numberIn(match[1]));
      return msg({ id: 'form.supportSubjectMax', message: `Keep the subject under ${max} characters` });
    },
  },
  {
    pattern: /^Describe the problem in a few words \(at least ([\d,]+) characters\)$/,
    message: (match, { number }) => {
      const min = number(numberIn(match[1]));
      return msg({
        id: 'form.supportMessageMin',
        message: `Describe the problem in a few words (at least ${min} characters)`,
      });
    },
  },
  {
    pattern: /^Keep the message under ([\d,]+) characters$/,
    message: (match, { number }) => {
      const max = number(numberIn(match[1]));
      return msg({ id: 'form.supportMessageMax', message: `Keep the message under ${max} characters` });
    },
  },
];
