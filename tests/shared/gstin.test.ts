import { describe, expect, it } from 'vitest';
import { billingDetailsRequestSchema, countryName } from '../../src/shared/api/invoices.js';
import { gstinCheckCharacter, gstinProblem, normalizeGstin } from '../../src/shared/gstin.js';

describe('GSTIN', () => {
  it('accepts published GSTINs whose mod-36 check character is right', () => {
    for (const gstin of ['27AAPFU0939F1ZV', '29AAGCB7383J1Z4', '33AAACH7409R1Z8']) {
      expect(gstinProblem(gstin), gstin).toBeUndefined();
      expect(gstinCheckCharacter(gstin.slice(0, 14))).toBe(gstin.charAt(14));
    }
  });

  it('finds any one mistyped character through the check character', () => {
    const gstin = '27AAPFU0939F1ZV';
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    let caught = 0;
    for (let position = 0; position < 15; position++) {
      for (const replacement of alphabet) {
        if (replacement === gstin.charAt(position)) continue;
        const typo = gstin.slice(0, position) + replacement + gstin.slice(position + 1);
        expect(gstinProblem(typo), typo).toBeDefined();
        caught++;
      }
    }
    expect(caught).toBe(15 * 35);
  });

  it('names the part that is wrong', () => {
    expect(gstinProblem('99AAPFU0939F1Z')).toMatch(/15 characters/);
    expect(gstinProblem('00AAPFU0939F1ZV')).toMatch(/state code/);
    expect(gstinProblem('97AAPFU0939F1ZV')).toMatch(/check character/); // state code 97 is valid
    expect(gstinProblem('27AAPFUX939F1ZV')).toMatch(/PAN/);
    expect(normalizeGstin(' 27aapfu0939f1zv ')).toBe('27AAPFU0939F1ZV');
    expect(normalizeGstin('27-AAPFU0939F-1ZV')).toBe('27AAPFU0939F1ZV');
  });

  it('the billing details schema checks the GSTIN for India only, and the country code', () => {
    const base = {
      name: 'A',
      address_line1: 'B',
      city: 'C',
      postal_code: '560001',
      country: 'in',
      tax_id: '27aapfu0939f1zv',
    };
    expect(billingDetailsRequestSchema.parse(base)).toMatchObject({
      country: 'IN',
      tax_id: '27AAPFU0939F1ZV',
    });
    const wrong = billingDetailsRequestSchema.safeParse({ ...base, tax_id: '27AAPFU0939F1ZX' });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({ path: ['tax_id'] });
    expect(
      billingDetailsRequestSchema.parse({
        ...base,
        country: 'GB',
        postal_code: 'SW1A 1AA',
        tax_id: 'GB 123 4567 89',
      }).tax_id,
    ).toBe('GB 123 4567 89');
    expect(countryName('IN')).toBe('India');
    expect(countryName('XX')).toBeUndefined();
    expect(countryName('EU')).toBeUndefined();
  });
});
