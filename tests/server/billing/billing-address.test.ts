import { expect, it } from 'vitest';
import { billingDetailsAnswerSchema, billingDetailsSchema } from '../../../src/shared/api/invoices.js';
import type { Organisation } from '../../../src/shared/api/organisations.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { expectValidationError, signInAsUser } from '../helpers/admin-helpers.js';
import {
  buyInSandbox,
  indianDetails,
  invoiceOfPayment,
  pdfText,
  putBillingDetails,
} from '../helpers/invoice-helpers.js';
import { createOrganisation } from '../helpers/organisation-helpers.js';

/**
 * Issue 27, item 9 over HTTP: countries from the maintained ISO 3166-1 list, an Indian PIN code
 * of 6 digits and a state of the GST list; and billing details saved before keep working.
 */
describeOnEveryDatabase('billing addresses: ISO countries, Indian PIN codes and GST states', (server) => {
  it('an Indian state is saved by its name whether sent by name or GST code; the PIN without spaces', async () => {
    const s = server();
    const buyer = await signInAsUser(s);
    const saved = await putBillingDetails(
      s,
      buyer.token,
      indianDetails({ region: '27', postal_code: '400 001', city: 'Mumbai' }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(billingDetailsSchema.parse(saved.json())).toMatchObject({
      region: 'Maharashtra',
      postal_code: '400001',
      country: 'IN',
    });
  });

  it('a state off the GST list, a PIN code of 5 or 7 digits, a withdrawn country: 400 naming the field, nothing saved', async () => {
    const s = server();
    const buyer = await signInAsUser(s);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ region: 'Bengal' }, /region.*Choose a state or union territory from the GST list/],
      [{ region: '40' }, /region/],
      [{ postal_code: '70001' }, /postal_code.*exactly 6 digits/],
      [{ postal_code: '7000161' }, /postal_code.*exactly 6 digits/],
      [{ country: 'DD' }, /country/],
      [{ country: 'YU', postal_code: '11000', region: null }, /country/],
    ];
    for (const [change, problem] of cases) {
      const message = expectValidationError(
        await putBillingDetails(s, buyer.token, { ...indianDetails(), ...change }),
      );
      expect(message, JSON.stringify(change)).toMatch(problem);
    }
    const read = await s.api({ path: '/billing/details', token: buyer.token });
    expect(billingDetailsAnswerSchema.parse(read.json())).toEqual({ details: null });
  });

  it('details saved under a withdrawn code read as the current country, on invoices too; an unknown code reads as saved', async () => {
    const s = server();
    const buyer = await signInAsUser(s);
    const saved = await putBillingDetails(s, buyer.token, {
      ...indianDetails({ country: 'DE', postal_code: '10115', city: 'Berlin', tax_id: null }),
      region: null,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // As the browser-made list let a customer save it: "Germany" under East Germany's code.
    await s.app.db
      .updateTable('billing_details')
      .set({ country: 'DD' })
      .where('user_id', '=', buyer.id)
      .execute();
    const read = await s.api({ path: '/billing/details', token: buyer.token });
    expect(read.statusCode, read.body).toBe(200);
    expect(billingDetailsAnswerSchema.parse(read.json()).details?.country).toBe('DE');

    const { payment } = await buyInSandbox(s, buyer.token);
    const invoice = await invoiceOfPayment(s, buyer.token, payment.id);
    expect(invoice.buyer.country).toBe('DE');
    expect(invoice.buyer.address).toContain('Germany');
    const pdf = await s.api({ path: `/billing/invoices/${invoice.id}/pdf`, token: buyer.token });
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain('Germany');

    // A code on no list at all: shown as saved rather than failing the page.
    await s.app.db
      .updateTable('billing_details')
      .set({ country: 'QQ' })
      .where('user_id', '=', buyer.id)
      .execute();
    const unknown = await s.api({ path: '/billing/details', token: buyer.token });
    expect(unknown.statusCode, unknown.body).toBe(200);
    expect(billingDetailsAnswerSchema.parse(unknown.json()).details?.country).toBe('QQ');
  });

  it("an organisation's details saved under a withdrawn code read as the current country", async () => {
    const s = server();
    const owner = await signInAsUser(s, 'owner');
    const organisation = await createOrganisation(s, owner);
    const stored = { ...indianDetails({ tax_id: null }), country: 'YU', postal_code: '11000', region: null };
    await s.app.db
      .updateTable('organisations')
      .set({ billing_details: JSON.stringify(stored) })
      .where('id', '=', organisation.id)
      .execute();
    const read = await s.api({ path: `/organisations/${organisation.id}`, token: owner.token });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<Organisation>().billing_details).toMatchObject({ country: 'RS', city: 'Kolkata' });
  });
});
