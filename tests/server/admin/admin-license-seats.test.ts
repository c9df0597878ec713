import { expect, it } from 'vitest';
import { adminLicenseListSchema, adminLicenseSchema } from '../../../src/shared/api/admin.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { signInAsAdmin } from '../helpers/admin-helpers.js';
import { giveLicense, member } from '../helpers/license-helpers.js';
import { addMember, PER_SEAT, seatOrganisation } from '../helpers/organisation-seat-helpers.js';

/*
 * Issue 27, point 5: the administrators' license views show a Business (organization) license's
 * seats bought and held, not its machines as seats; a personal license has none.
 */
describeOnEveryDatabase('admin licenses: seats bought and held', (server) => {
  it('a Business license reports 5 seats bought, 2 held, 2 machines a seat; a personal one no seats', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const owner = await member(s);
    const org = await seatOrganisation(s, owner, 5);
    // The owner holds a seat; one member more does, another is a member without one.
    await addMember(s, org, await member(s));
    await addMember(s, org, await member(s), { seat: false });
    const personal = await giveLicense(s, owner, 'pro-monthly');

    const detail = await s.api({ path: `/admin/licenses/${org.license.id}`, token: admin.token });
    expect(detail.statusCode, detail.body).toBe(200);
    const business = adminLicenseSchema.parse(detail.json());
    expect(business.seats).toEqual({ bought: 5, held: 2, machines_per_seat: PER_SEAT });

    const list = await s.api({ path: `/admin/licenses?perPage=100`, token: admin.token });
    expect(list.statusCode, list.body).toBe(200);
    const rows = adminLicenseListSchema.parse(list.json()).data;
    expect(rows.find((row) => row.license_id === org.license.id)?.seats).toEqual({
      bought: 5,
      held: 2,
      machines_per_seat: PER_SEAT,
    });
    expect(rows.find((row) => row.license_id === personal.id)?.seats).toBeNull();
  });
});
