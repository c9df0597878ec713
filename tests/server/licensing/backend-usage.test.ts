import { expect, it } from 'vitest';
import type { AllowanceEvent } from '../../../src/server/licensing/events.js';
import { licenseUsageSchema } from '../../../src/shared/api/licenses.js';
import { backendUsageBatchResponseSchema } from '../../../src/shared/api/usage.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { type SignedIn, signInAsAdmin } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { createPlan, featureByKey, giveLicense, member, usageTotals } from '../helpers/license-helpers.js';

/** A platform token of the administrator, as the vendor's AI backend holds one. */
async function backendToken(s: TestServer, admin: SignedIn, scopes: string[]): Promise<string> {
  const response = await s.api({
    method: 'POST',
    path: '/admin/api-tokens',
    token: admin.token,
    body: { name: 'AI backend', scopes, expires_in_days: 30 },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ token: string }>().token;
}

async function twoCustomers(s: TestServer) {
  const plan = await createPlan(s, { features: { ai_chat: 100 } });
  const first = await giveLicense(s, await member(s), plan);
  const second = await giveLicense(s, await member(s), plan);
  return { first, second, featureId: (await featureByKey(s, 'ai_chat')).id };
}

const reportAs = (s: TestServer, token: string, events: unknown[]) =>
  s.api({ method: 'POST', path: '/usage/events', token, body: { events } });

describeOnEveryDatabase('usage: the vendor’s AI backend reports with a usage:write token', (server) => {
  it('counts each license’s events against that license, once, and refuses those of unknown or inactive licenses', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const token = await backendToken(s, admin, ['usage:write']);
    const { first, second, featureId } = await twoCustomers(s);
    await s.app.db.updateTable('licenses').set({ status: 'suspended' }).where('id', '=', second.id).execute();
    const third = await giveLicense(s, await member(s), await createPlan(s, { features: { ai_chat: 100 } }));
    const batch = [
      { license_id: first.id, id: 'req-1', feature: 'ai_chat', amount: 30 },
      { license_id: second.id, id: 'req-1', feature: 'ai_chat', amount: 5 },
      { license_id: 'no-such-license', id: 'req-2', feature: 'ai_chat', amount: 5 },
      { license_id: third.id, id: 'req-1', feature: 'ai_chat', amount: 12 },
      { license_id: first.id, id: 'req-3', feature: 'ai_chat', amount: 80 },
    ];
    const response = await reportAs(s, token, batch);
    expect(response.statusCode, response.body).toBe(200);
    const answer = backendUsageBatchResponseSchema.parse(response.json());
    expect(answer.results.map((result) => [result.license_id, result.outcome, result.code])).toEqual([
      [first.id, 'counted', undefined],
      [second.id, 'refused', 'license_inactive'],
      ['no-such-license', 'refused', 'license_not_found'],
      [third.id, 'counted', undefined],
      [first.id, 'refused', 'allowance_used'],
    ]);
    expect((await usageTotals(s, first.id, featureId)).counter).toBe(30);
    expect((await usageTotals(s, second.id, featureId)).counter).toBe(0);
    expect((await usageTotals(s, third.id, featureId)).counter).toBe(12);

    // Sent again (a retry after a lost answer): nothing more counts.
    const again = backendUsageBatchResponseSchema.parse((await reportAs(s, token, batch)).json());
    expect(again).toMatchObject({ counted: 0, duplicates: 2 });
    expect((await usageTotals(s, first.id, featureId)).counter).toBe(30);
  });

  it('tells the holder at 80 % of the allowance when the backend’s use crosses it, as the desktop’s would', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const token = await backendToken(s, admin, ['usage:write']);
    const owner = await member(s);
    const license = await giveLicense(s, owner, await createPlan(s, { features: { ai_chat: 100 } }));
    const announced: string[] = [];
    const listener = (_trx: unknown, event: AllowanceEvent) => {
      if (event.license.id === license.id) announced.push(event.type);
      return Promise.resolve();
    };
    s.app.events.on('usage.allowance_warning', listener as never);
    const response = await reportAs(s, token, [
      { license_id: license.id, id: 'backend-80', feature: 'ai_chat', amount: 85 },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(announced).toEqual(['usage.allowance_warning']);
    expect((await s.lastMailTo(owner.email)).subject).toBe('You have used 85% of AI chat this month');
  });

  it('reads a license’s use with usage:read; a usage token reaches nothing else', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const writer = await backendToken(s, admin, ['usage:write']);
    const { first } = await twoCustomers(s);
    await reportAs(s, writer, [{ license_id: first.id, id: 'r-1', feature: 'ai_chat', amount: 7 }]);

    const read = await s.api({ path: `/usage/licenses/${first.id}?days=1`, token: writer });
    expect(read.statusCode, read.body).toBe(200);
    const usage = licenseUsageSchema.parse(read.json());
    expect(usage.usage_info.features.find((feature) => feature.key === 'ai_chat')?.used).toBe(7);
    expect(usage.history.map((day) => day.amount)).toEqual([7]);
    expectApiError(
      await s.api({ path: '/usage/licenses/no-such-license', token: writer }),
      404,
      'license_not_found',
    );

    expectApiError(await s.api({ path: '/admin/users', token: writer }), 403, 'insufficient_scope');
    const reader = await backendToken(s, admin, ['usage:read']);
    expectApiError(
      await reportAs(s, reader, [{ license_id: first.id, id: 'r-2', feature: 'ai_chat', amount: 1 }]),
      403,
      'insufficient_scope',
    );
  });

  it('a customer can neither report through the backend route nor get a usage scope on a token of their own', async () => {
    const s = server();
    const customer = await member(s);
    const { first } = await twoCustomers(s);
    expectApiError(
      await reportAs(s, customer.token, [{ license_id: first.id, id: 'x', feature: 'ai_chat', amount: 1 }]),
      403,
      'admin_required',
    );
    const personal = await s.api({
      method: 'POST',
      path: '/users/me/api-tokens',
      token: customer.token,
      body: { name: 'mine', scopes: ['usage:write'], expires_in_days: 30 },
    });
    expectApiError(personal, 400, 'invalid_scope');
  });

  it('refuses a malformed batch whole', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const token = await backendToken(s, admin, ['usage:write']);
    expectApiError(
      await reportAs(s, token, [{ id: 'x', feature: 'ai_chat', amount: 1 }]),
      400,
      'validation_error',
    );
    expectApiError(await reportAs(s, token, []), 400, 'validation_error');
  });
});
