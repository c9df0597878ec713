import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { countryNameIn } from '../../../src/renderer/src/lib/country-names';
import { FORM_MESSAGES } from '../../../src/renderer/src/lib/i18n/form-messages';
import { knownText, showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { emailOnlyRequestSchema } from '../../../src/shared/api/auth';
import { displayText, newPasswordSchema } from '../../../src/shared/api/common';
import { couponCodeSchema } from '../../../src/shared/api/coupons';
import {
  billingDetailsRequestSchema,
  INDIAN_PIN_PROBLEM,
  INDIAN_STATE_PROBLEM,
} from '../../../src/shared/api/invoices';
import { licenseKeyInputSchema, machineLabelSchema } from '../../../src/shared/api/licenses';
import { domainNameSchema } from '../../../src/shared/api/organisation-domains';
import {
  organisationSamlBodySchema,
  organisationSsoBodySchema,
} from '../../../src/shared/api/organisation-sso';
import {
  createOrganisationBodySchema,
  inviteMemberBodySchema,
  seatChangeBodySchema,
} from '../../../src/shared/api/organisations';
import { supportRequestBodySchema } from '../../../src/shared/api/support';
import { vatNumberProblem } from '../../../src/shared/eu-vat';
import { gstinProblem } from '../../../src/shared/gstin';
import { passwordFeedbackTexts } from '../../../src/shared/password-feedback';
import { judgeNewPassword } from '../../../src/shared/password-rule';
import { coveredVersionMessage } from '../../../src/shared/update-window';

/** Every message a schema gives for `value`. */
const problems = (schema: ZodType, value: unknown): string[] => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

const long = (length: number) => 'a'.repeat(length);
const billing = {
  name: 'A',
  address_line1: 'B',
  city: 'C',
  postal_code: '400001',
  country: 'IN',
};

/** What the shared code says to a customer on the portal's forms, in its English. */
function sharedEnglish(): string[] {
  const texts = [
    ...problems(emailOnlyRequestSchema, { email: '' }),
    ...problems(emailOnlyRequestSchema, { email: 'not-an-address' }),
    ...problems(emailOnlyRequestSchema, { email: `${long(250)}@example.com` }),
    ...problems(newPasswordSchema, 'short'),
    ...problems(newPasswordSchema, long(200)),
    ...problems(displayText(100), long(101)),
    ...problems(displayText(100), 'a\u0007'),
    // As the form sends it untouched: every field a string.
    ...problems(billingDetailsRequestSchema, {
      name: '',
      address_line1: '',
      city: '',
      postal_code: '',
      country: '',
    }),
    ...problems(billingDetailsRequestSchema, { ...billing, country: 'XX' }),
    ...problems(billingDetailsRequestSchema, { ...billing, postal_code: '012345', region: 'Atlantis' }),
    ...problems(billingDetailsRequestSchema, { ...billing, tax_id: '27AAPFU0939F1Z' }),
    ...problems(billingDetailsRequestSchema, { ...billing, country: 'DE', tax_id: 'DE12' }),
    ...problems(billingDetailsRequestSchema, { ...billing, country: 'US', tax_id: long(31) }),
    ...problems(billingDetailsRequestSchema, { ...billing, tax_id: long(41) }),
    ...['27AAPFU0939F1Z!', '00AAPFU0939F1ZV', '27AAPF00939F1ZV', '27AAPFU0939F0ZV', '27AAPFU0939F1YV'].map(
      (gstin) => gstinProblem(gstin) ?? '',
    ),
    gstinProblem('27AAPFU0939F1ZA') ?? '',
    ...problems(supportRequestBodySchema, {}),
    ...problems(supportRequestBodySchema, { topic: 'Something else', subject: 'x', message: 'short' }),
    ...problems(supportRequestBodySchema, {
      topic: 'Something else',
      subject: long(121),
      message: long(5001),
    }),
    ...problems(licenseKeyInputSchema, ''),
    ...problems(licenseKeyInputSchema, long(65)),
    ...problems(machineLabelSchema, ''),
    ...problems(machineLabelSchema, long(200)),
    ...problems(machineLabelSchema, 'a\u0007'),
    ...problems(createOrganisationBodySchema, { name: '' }),
    ...problems(inviteMemberBodySchema, { email: 'a@example.com', role: 'owner' }),
    ...['', long(254), 'https://example.com', 'not a domain!', 'example', '10.0.0.1', 'gmail.com'].flatMap(
      (domain) => problems(domainNameSchema, domain),
    ),
    ...['ab', long(41), 'NO SPACES'].flatMap((code) => problems(couponCodeSchema, code)),
    ...[undefined, 1.5, 0, 1_000_000].flatMap((seats) => problems(seatChangeBodySchema, { seats })),
    ...problems(organisationSsoBodySchema, {
      issuer: 'ftp://x',
      client_id: '',
      client_secret: '',
      scopes: 'email  profile',
      role_mapping: [{ group: '', role: 'member' }],
    }),
    ...problems(organisationSsoBodySchema, {
      issuer: `https://${long(500)}.com`,
      client_id: 'portal',
      scopes: 'email',
    }),
    ...problems(organisationSamlBodySchema, { metadata_xml: ' ', metadata_url: 'ftp://x' }),
    ...problems(organisationSamlBodySchema, {
      metadata_xml: '<x/>',
      metadata_url: 'https://idp.example.com/m',
    }),
    judgeNewPassword('aaaaaaaa').problem ?? '',
    judgeNewPassword('correct horse battery staple jonathan.smith', 'jonathan.smith@example.com').problem ??
      '',
    ...Object.values(passwordFeedbackTexts.warnings),
    ...Object.values(passwordFeedbackTexts.suggestions),
    coveredVersionMessage('2.3.0', '2.4.0'),
    coveredVersionMessage(null, null),
    `License is valid. ${coveredVersionMessage('2.3.1', null)}`,
  ];
  return [...new Set(texts.filter(Boolean))];
}

describe('the shared English the portal knows', () => {
  it('holds the schemas’ own words', () => {
    const english = new Set(FORM_MESSAGES.map(([text]) => text));
    expect(english.has(INDIAN_PIN_PROBLEM)).toBe(true);
    expect(english.has(INDIAN_STATE_PROBLEM)).toBe(true);
  });

  it('shows it as it is in English', () => {
    for (const text of sharedEnglish()) expect(knownText(text)).toBe(text);
  });
});

describe('the shared English in German', () => {
  beforeEach(async () => {
    await showLanguage('de');
  });
  afterEach(async () => {
    await showLanguage('en');
  });

  it('translates every message the forms, the strength meter and the license check get', () => {
    const untranslated = sharedEnglish().filter((text) => knownText(text) === text);
    expect(untranslated).toEqual([]);
  });

  it('puts the values into the German: lengths, counts, numbers and the country', () => {
    expect(knownText('Must be at most 100 characters')).toBe('Höchstens 100 Zeichen');
    expect(knownText('Password must be at least 8 characters')).toBe(
      'Das Passwort muss mindestens 8 Zeichen lang sein',
    );
    expect(knownText('Keep the message under 5,000 characters')).toBe(
      'Die Nachricht muss unter 5.000 Zeichen bleiben',
    );
    expect(knownText(gstinProblem('27AAPFU0939F1Z') ?? '')).toBe('Eine GSTIN hat 15 Zeichen; diese hat 14');
    expect(knownText(vatNumberProblem('DE', 'DE12') ?? '')).toBe(
      'Dies ist keine USt-IdNr. aus Deutschland: Sie sollte wie DE123456789 aussehen',
    );
    expect(knownText('client_id is required')).toBe('client_id ist erforderlich');
  });

  it('translates the password rule’s refusal with zxcvbn’s warning inside it', () => {
    expect(knownText(judgeNewPassword('aaaaaaaa').problem ?? '')).toBe(
      'Dieses Passwort ist zu verbreitet oder zu leicht zu erraten. Wiederholte Zeichen wie „aaa“ sind leicht zu erraten. Wählen Sie eine längere Wortfolge, die nur für dieses Konto gilt.',
    );
  });

  it('translates what an ended update window covers, with its versions', () => {
    expect(knownText(`License is valid. ${coveredVersionMessage('2.3.0', '2.4.0')}`)).toBe(
      'Die Lizenz ist gültig. Ihre Lizenz deckt Versionen bis 2.3 ab. Verlängern Sie die Updates, um 2.4 und neuer zu erhalten.',
    );
  });

  it('leaves a message it does not know as sent', () => {
    expect(knownText('Try again in 3 minutes')).toBe('Try again in 3 minutes');
  });
});

describe('country names', () => {
  it('are the browser’s in the language shown, the list’s English without one', () => {
    expect(countryNameIn('DE', 'de')).toBe('Deutschland');
    expect(countryNameIn('IN', 'es')).toBe('India');
    expect(countryNameIn('IN', 'hi-IN')).toBe('भारत');
    expect(countryNameIn('DE', undefined)).toBe('Germany');
    // A withdrawn code the portal once offered reads as its successor's English.
    expect(countryNameIn('UK', undefined)).toBe('United Kingdom');
    expect(countryNameIn('DD', 'de')).toBe('Deutschland');
  });
});
