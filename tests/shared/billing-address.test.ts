import { describe, expect, it } from 'vitest';
import { billingDetailsRequestSchema } from '../../src/shared/api/invoices.js';
import { COUNTRIES, countryName, currentCountryCode, isCountryCode } from '../../src/shared/countries.js';
import { findGstState, GST_STATES } from '../../src/shared/gst-states.js';
import { gstinCheckCharacter, gstinProblem } from '../../src/shared/gstin.js';

const indian = {
  name: 'Asha Rao',
  address_line1: '4 Park Street',
  city: 'Kolkata',
  postal_code: '700016',
  country: 'IN',
};

/** The first issue's path and message of a refused billing address. */
function refusal(body: Record<string, unknown>) {
  const result = billingDetailsRequestSchema.safeParse(body);
  expect(result.success, JSON.stringify(body)).toBe(false);
  return result.error?.issues[0];
}

describe('the country list', () => {
  it('names each country once, from the ISO 3166-1 list, without withdrawn codes', () => {
    const names = COUNTRIES.map((country) => country.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(COUNTRIES.map((country) => country.code)).size).toBe(COUNTRIES.length);
    // The browser-made list offered Germany twice (DE, DD) and Serbia three times (RS, CS, YU).
    expect(COUNTRIES.filter((country) => /germany/i.test(country.name))).toEqual([
      { code: 'DE', name: 'Germany' },
    ]);
    expect(COUNTRIES.filter((country) => /serbia/i.test(country.name))).toEqual([
      { code: 'RS', name: 'Serbia' },
    ]);
    for (const withdrawn of ['DD', 'YU', 'CS', 'AN', 'SU', 'ZR', 'UK', 'EU', 'ZZ'])
      expect(isCountryCode(withdrawn), withdrawn).toBe(false);
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(249);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('a code the portal once offered reads as the country it showed; an unknown one as none', () => {
    expect(currentCountryCode('DD')).toBe('DE');
    expect(currentCountryCode('yu')).toBe('RS');
    expect(currentCountryCode('UK')).toBe('GB');
    expect(currentCountryCode('in')).toBe('IN');
    expect(currentCountryCode('QQ')).toBeUndefined();
    expect(currentCountryCode('')).toBeUndefined();
    expect(countryName('CS')).toBe('Serbia');
    expect(countryName('QQ')).toBeUndefined();
  });

  it('the server takes only codes of the list', () => {
    expect(
      billingDetailsRequestSchema.parse({ ...indian, country: 'de', postal_code: '10115' }).country,
    ).toBe('DE');
    for (const country of ['DD', 'YU', 'XX', 'IND', ''])
      expect(refusal({ ...indian, country })).toMatchObject({ path: ['country'] });
  });
});

describe('an Indian address', () => {
  it('a PIN code is exactly 6 digits, not starting with 0, saved without the spaces typed', () => {
    expect(billingDetailsRequestSchema.parse({ ...indian, postal_code: ' 700 016 ' }).postal_code).toBe(
      '700016',
    );
    for (const postal_code of ['70001', '7000161', '070016', '70001A', '700-016'])
      expect(refusal({ ...indian, postal_code }), postal_code).toMatchObject({
        path: ['postal_code'],
        message: expect.stringMatching(/exactly 6 digits/),
      });
    // Abroad a postal code is free text.
    expect(
      billingDetailsRequestSchema.parse({ ...indian, country: 'GB', postal_code: 'SW1A 1AA' }).postal_code,
    ).toBe('SW1A 1AA');
  });

  it('the state is one of the GST list, by name, GST code or former name, saved by name', () => {
    const state = (region: string | null) => billingDetailsRequestSchema.parse({ ...indian, region }).region;
    expect(state('West Bengal')).toBe('West Bengal');
    expect(state(' west  bengal ')).toBe('West Bengal');
    expect(state('19')).toBe('West Bengal');
    expect(state('7')).toBe('Delhi');
    expect(state('Orissa')).toBe('Odisha');
    expect(state('Andaman & Nicobar Islands')).toBe('Andaman and Nicobar Islands');
    expect(state('28')).toBe('Andhra Pradesh');
    expect(state(null)).toBeNull();
    for (const region of ['Bengal', '40', '99', 'Kolkata'])
      expect(refusal({ ...indian, region }), region).toMatchObject({
        path: ['region'],
        message: 'Choose a state or union territory from the GST list',
      });
    // Abroad a region is free text.
    expect(
      billingDetailsRequestSchema.parse({ ...indian, country: 'US', postal_code: '94103', region: 'CA' })
        .region,
    ).toBe('CA');
  });

  it('the GST list: 36 states and union territories, each code one a GSTIN may start with', () => {
    expect(GST_STATES).toHaveLength(36);
    expect(new Set(GST_STATES.map((each) => each.code)).size).toBe(36);
    expect(new Set(GST_STATES.map((each) => each.name)).size).toBe(36);
    for (const each of GST_STATES) {
      const first14 = `${each.code}AAPFU0939F1Z`;
      expect(gstinProblem(first14 + gstinCheckCharacter(first14)), each.name).toBeUndefined();
      expect(findGstState(each.name)).toBe(each);
      expect(findGstState(each.code)).toBe(each);
    }
    expect(findGstState('27')).toMatchObject({ name: 'Maharashtra', kind: 'state' });
    expect(findGstState('Chandigarh')).toMatchObject({ code: '04', kind: 'union_territory' });
  });
});
