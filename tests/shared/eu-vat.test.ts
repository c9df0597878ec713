import { describe, expect, it } from 'vitest';
import { billingDetailsRequestSchema } from '../../src/shared/api/invoices.js';
import { EU_COUNTRIES, normalizeVatNumber, vatNumberProblem } from '../../src/shared/eu-vat.js';

/** Issue 34, item 8: an EU VAT number's format per member state (no network check). */
describe('EU VAT numbers: the format of each member state', () => {
  const valid: [string, string][] = [
    ['AT', 'ATU12345678'],
    ['BE', 'BE0123456789'],
    ['BG', 'BG1234567890'],
    ['CY', 'CY12345678X'],
    ['CZ', 'CZ1234567890'],
    ['DE', 'DE123456789'],
    ['DK', 'DK12345678'],
    ['EE', 'EE123456789'],
    ['ES', 'ESX1234567X'],
    ['ES', 'ESA12345678'],
    ['FI', 'FI12345678'],
    ['FR', 'FRXX123456789'],
    ['FR', 'FR12345678901'],
    ['GR', 'EL123456789'],
    ['HR', 'HR12345678901'],
    ['HU', 'HU12345678'],
    ['IE', 'IE1234567WA'],
    ['IE', 'IE1A23456W'],
    ['IT', 'IT12345678901'],
    ['LT', 'LT123456789012'],
    ['LU', 'LU12345678'],
    ['LV', 'LV12345678901'],
    ['MT', 'MT12345678'],
    ['NL', 'NL123456789B01'],
    ['PL', 'PL1234567890'],
    ['PT', 'PT123456789'],
    ['RO', 'RO12'],
    ['SE', 'SE123456789001'],
    ['SI', 'SI12345678'],
    ['SK', 'SK1234567890'],
  ];
  it.each(valid)('%s: %s is of the right format', (country, number) => {
    expect(vatNumberProblem(country, number)).toBeUndefined();
  });

  it('every member state has a format', () => {
    expect(EU_COUNTRIES.size).toBe(27);
    expect(new Set(valid.map(([country]) => country)).size).toBe(27);
  });

  const invalid: [string, string][] = [
    ['DE', 'DE12345678'], // 8 digits, not 9
    ['DE', 'DE1234567890'],
    ['DE', 'DEA23456789'],
    ['DE', 'FR12345678901'], // another state's number
    ['AT', 'AT12345678'], // the U is missing
    ['BE', 'BE2123456789'], // starts with 2
    ['ES', 'ES123456789'], // no letter
    ['FR', 'FRIO123456789'], // I and O are not used
    ['GR', 'GR123456789'], // Greece's prefix is EL
    ['NL', 'NL123456789A01'],
    ['SE', 'SE123456789002'],
    ['RO', 'RO0123'],
    ['IE', 'IE1234567'],
  ];
  it.each(invalid)('%s: %s is refused, naming the expected shape', (country, number) => {
    expect(vatNumberProblem(country, number)).toMatch(/is not a VAT number of .*: it should look like/);
  });

  it('spaces, dots and hyphens are dropped, the prefix added when only the digits were typed', () => {
    expect(normalizeVatNumber('DE', 'de 123.456-789')).toBe('DE123456789');
    expect(normalizeVatNumber('DE', '123456789')).toBe('DE123456789');
    expect(normalizeVatNumber('AT', 'U12345678')).toBe('ATU12345678');
    expect(normalizeVatNumber('GR', '123456789')).toBe('EL123456789');
    expect(normalizeVatNumber('DE', '12345')).toBe('12345');
  });

  it('the billing details: an EU tax id is a VAT number, checked; elsewhere free text as before', () => {
    const details = {
      name: 'Muster GmbH',
      address_line1: 'Unter den Linden 1',
      city: 'Berlin',
      postal_code: '10117',
      country: 'DE',
    };
    expect(billingDetailsRequestSchema.parse({ ...details, tax_id: '123 456 789' }).tax_id).toBe(
      'DE123456789',
    );
    const bad = billingDetailsRequestSchema.safeParse({ ...details, tax_id: 'DE12345' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['tax_id'] });
    expect(bad.error?.issues[0]?.message).toMatch(
      /not a VAT number of Germany: it should look like DE123456789/,
    );
    expect(billingDetailsRequestSchema.parse({ ...details, tax_id: null }).tax_id).toBeNull();
    expect(
      billingDetailsRequestSchema.parse({ ...details, country: 'US', tax_id: '12-3456789' }).tax_id,
    ).toBe('12-3456789');
  });
});
