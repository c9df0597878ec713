import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  type BillingDetailsRequest,
  type Invoice,
  type InvoiceList,
  invoiceListSchema,
} from '../../../src/shared/api/invoices.js';
import type { PaymentVerification } from '../../../src/shared/api/payments.js';
import type { TestServer } from '../../support/test-server.js';
import { planByCode } from './license-helpers.js';
import { expectVerified, openOrder, payInSandbox, verifyPayment } from './payment-helpers.js';

/** Shared set-up of the invoice and refund suites (tests/server/billing/invoices*.test.ts, refunds.test.ts). */

/** A GSTIN whose check character is right (Maharashtra, the GST Network's documented sample). */
export const VALID_GSTIN = '27AAPFU0939F1ZV';

export const indianDetails = (overrides: Partial<BillingDetailsRequest> = {}): BillingDetailsRequest => ({
  name: 'Asha Rao Consulting',
  address_line1: '4 Park Street',
  address_line2: 'Floor 2',
  city: 'Kolkata',
  postal_code: '700016',
  region: 'West Bengal',
  country: 'IN',
  tax_id: VALID_GSTIN,
  ...overrides,
});

export const putBillingDetails = (s: TestServer, token: string, body: unknown) =>
  s.api({ method: 'PUT', path: '/billing/details', token, body });

/** Order → sandbox checkout → verify, as the portal does; returns the verification. */
export async function buyInSandbox(
  s: TestServer,
  token: string,
  planCode = 'pro-monthly',
): Promise<PaymentVerification> {
  const plan = await planByCode(s, planCode);
  const order = await openOrder(s, token, plan.id);
  const paid = await payInSandbox(s, token, order.order_id);
  return expectVerified(await verifyPayment(s, token, paid));
}

export async function invoicesOf(s: TestServer, token: string, query = ''): Promise<InvoiceList> {
  const response = await s.api({ path: `/billing/invoices${query}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return invoiceListSchema.parse(response.json());
}

/** The invoice of one payment, from the buyer's list. */
export async function invoiceOfPayment(s: TestServer, token: string, paymentId: string): Promise<Invoice> {
  const list = await invoicesOf(s, token, '?perPage=100&kind=invoice');
  const invoice = list.data.find((item) => item.payment_id === paymentId);
  if (!invoice) throw new Error(`no invoice for payment ${paymentId} among ${list.total}`);
  return invoice;
}

const run = promisify(execFile);

/** The text of a PDF as poppler's pdftotext reads it (layout kept, so a row stays on one line). */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'invoice-pdf-'));
  try {
    const file = join(dir, 'document.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Asserts a PDF answer and returns its bytes. */
export function expectPdf(response: LightMyRequestResponse, number: string): Buffer {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  expect(response.headers['content-disposition']).toBe(`attachment; filename="${number}.pdf"`);
  const pdf = response.rawPayload;
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return pdf;
}

/** Sequences of a series' documents, in order. */
export async function sequencesOf(s: TestServer, series: string): Promise<number[]> {
  const rows = await s.app.db
    .selectFrom('invoices')
    .select('sequence')
    .where('series', '=', series)
    .orderBy('sequence')
    .execute();
  return rows.map((row) => Number(row.sequence));
}

/** 1, 2, … n: no number skipped, none used twice. */
export const consecutive = (count: number) => Array.from({ length: count }, (_, index) => index + 1);
