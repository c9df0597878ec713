import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../../src/server/platform/config.js';
import { formatMinor, formatRate, printable } from '../../../src/server/billing/invoices/pdf.js';
import {
  chargeForPrice,
  refundTaxShare,
  splitGross,
  taxOnNet,
} from '../../../src/server/billing/invoices/tax.js';

describe('invoice tax in integer minor units', () => {
  it('rounds the tax half up to the minor unit; net + tax is always the gross', () => {
    expect(taxOnNet(84_661, 1800)).toBe(15_239); // 15 238.98
    expect(taxOnNet(250, 1800)).toBe(45); // 45.0
    expect(taxOnNet(25, 1800)).toBe(5); // 4.5 → 5 (half up)
    expect(taxOnNet(1, 1800)).toBe(0); // 0.18
    expect(taxOnNet(3, 1800)).toBe(1); // 0.54
    expect(splitGross(99_900, 1800)).toEqual({ netMinor: 84_661, taxMinor: 15_239, grossMinor: 99_900 });
    expect(splitGross(0, 1800)).toEqual({ netMinor: 0, taxMinor: 0, grossMinor: 0 });
    expect(splitGross(1000, 0)).toEqual({ netMinor: 1000, taxMinor: 0, grossMinor: 1000 });
  });

  it('prices exclusive of tax: the charge is price + tax, and splitting it gives the price back, for every price', () => {
    for (const rate of [500, 1200, 1800, 2800, 1, 9999]) {
      for (let price = 0; price <= 20_000; price += 7) {
        const gross = chargeForPrice(price, { rateBasisPoints: rate, inclusive: false });
        expect(gross).toBe(price + taxOnNet(price, rate));
        const split = splitGross(gross, rate);
        if (split.netMinor !== price) throw new Error(`rate ${rate}, price ${price}: net ${split.netMinor}`);
      }
    }
    expect(chargeForPrice(99_900, { rateBasisPoints: 1800, inclusive: true })).toBe(99_900);
    expect(chargeForPrice(99_900, { rateBasisPoints: 1800, inclusive: false })).toBe(117_882);
  });

  it('refund tax shares of partial refunds add up to exactly the invoice tax', () => {
    const invoice = { invoiceGrossMinor: 99_900, invoiceTaxMinor: 15_239 };
    let refunded = 0;
    let taxCredited = 0;
    for (const part of [33_333, 33_333, 1, 33_233]) {
      const share = refundTaxShare({
        ...invoice,
        refundedBeforeMinor: refunded,
        taxCreditedBeforeMinor: taxCredited,
        refundMinor: part,
      });
      expect(share.netMinor + share.taxMinor).toBe(part);
      refunded += part;
      taxCredited += share.taxMinor;
    }
    expect(refunded).toBe(99_900);
    expect(taxCredited).toBe(15_239);
    expect(() =>
      refundTaxShare({
        ...invoice,
        refundedBeforeMinor: 99_900,
        taxCreditedBeforeMinor: 15_239,
        refundMinor: 1,
      }),
    ).toThrow(/exceed/);
  });

  it('refuses amounts that are not whole minor units and rates out of range', () => {
    expect(() => taxOnNet(1.5, 1800)).toThrow(RangeError);
    expect(() => taxOnNet(-1, 1800)).toThrow(RangeError);
    expect(() => splitGross(100, 10_001)).toThrow(RangeError);
  });

  it('formats minor units with the currency’s decimals and code (Indian grouping for INR)', () => {
    expect(formatMinor(99_900, 'INR')).toBe('INR 999.00');
    expect(formatMinor(12_345_678, 'INR')).toBe('INR 1,23,456.78');
    expect(formatMinor(-5, 'INR')).toBe('-INR 0.05');
    expect(formatMinor(1500, 'JPY')).toBe('JPY 1,500');
    expect(formatMinor(123_456, 'USD')).toBe('USD 1,234.56');
    expect(formatMinor(1234, 'KWD')).toBe('KWD 1.234');
    expect(formatRate(1800)).toBe('18%');
    expect(formatRate(1250)).toBe('12.5%');
    expect(printable('Zoë ₹ नमस्ते Śródka Łódź')).toBe('Zoë ? ?????? Sródka ?ódz');
  });
});

describe('invoice settings', () => {
  const base = { DATA_DIR: '/tmp/unused' };
  it('defaults: GST 18 % included in prices, series INV and CN', () => {
    const { invoices } = loadConfig(base);
    expect(invoices).toEqual({
      seller: { name: 'Desktop AI Assistant', address: [], taxId: undefined, email: undefined },
      tax: { name: 'GST', rateBasisPoints: 1800, inclusive: true },
      exportNote: 'Supply meant for export under LUT without payment of IGST',
      invoiceSeries: 'INV',
      creditNoteSeries: 'CN',
    });
  });

  it('reads the seller, the tax and the series; refuses bad values all at once', () => {
    const { invoices } = loadConfig({
      ...base,
      SELLER_NAME: 'Acme',
      SELLER_ADDRESS: ' 1 Road |  | City ',
      TAX_NAME: 'VAT',
      TAX_RATE_BASIS_POINTS: '2000',
      TAX_INCLUSIVE: 'false',
      INVOICE_SERIES: 'A/2026',
      CREDIT_NOTE_SERIES: 'C-2026',
      TAX_EXPORT_NOTE: ' Supply meant for export under LUT without payment of IGST, LUT ARN AD290425001234X ',
    });
    expect(invoices.seller.address).toEqual(['1 Road', 'City']);
    expect(invoices.exportNote).toBe(
      'Supply meant for export under LUT without payment of IGST, LUT ARN AD290425001234X',
    );
    expect(invoices.tax).toEqual({ name: 'VAT', rateBasisPoints: 2000, inclusive: false });
    expect(invoices.invoiceSeries).toBe('A/2026');

    let error: unknown;
    try {
      loadConfig({
        ...base,
        TAX_RATE_BASIS_POINTS: '18.5',
        TAX_INCLUSIVE: 'yes',
        INVOICE_SERIES: 'inv',
        SELLER_EMAIL: 'not-mail',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/TAX_RATE_BASIS_POINTS: must be a whole number/);
    expect(problems).toMatch(/TAX_INCLUSIVE: must be true or false/);
    expect(problems).toMatch(/INVOICE_SERIES: must be 1 to 16 capital letters/);
    expect(problems).toMatch(/SELLER_EMAIL/);
    expect(() => loadConfig({ ...base, INVOICE_SERIES: 'X', CREDIT_NOTE_SERIES: 'X' })).toThrow(
      /CREDIT_NOTE_SERIES: must differ/,
    );
  });
});
