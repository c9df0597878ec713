import { expect, it } from 'vitest';
import type { AllowanceEvent } from '../../../src/server/licensing/events.js';
import type { Overage } from '../../../src/shared/api/plans.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { createPlan, giveLicense, type Member, member } from '../helpers/license-helpers.js';

/** Every allowance event announced from now on, by type. */
function heard(s: TestServer) {
  const events: AllowanceEvent[] = [];
  const listener = (_trx: unknown, event: AllowanceEvent) => {
    events.push(event);
    return Promise.resolve();
  };
  s.app.events.on('usage.allowance_warning', listener as never);
  s.app.events.on('usage.allowance_reached', listener as never);
  return events;
}

async function customer(s: TestServer, allowance: number, overage?: Overage) {
  const plan = await createPlan(s, {
    features: { ai_chat: allowance },
    ...(overage ? { overage: { ai_chat: overage } } : {}),
  });
  const owner = await member(s);
  return { owner, license: await giveLicense(s, owner, plan) };
}

let sequence = 0;
const use = async (s: TestServer, who: Member, licenseId: string, amount: number, count = 1) => {
  const events = Array.from({ length: count }, () => ({
    id: `use-${++sequence}`,
    feature: 'ai_chat',
    amount,
  }));
  const response = await s.api({
    method: 'POST',
    path: `/licenses/${licenseId}/usage/events`,
    token: who.token,
    body: { events },
  });
  expect(response.statusCode, response.body).toBe(200);
};

const subjectsTo = async (s: TestServer, email: string) =>
  (await s.outbox()).filter((mail) => mail.to.includes(email)).map((mail) => mail.subject);

describeOnEveryDatabase('usage: told at 80 % and 100 % of an allowance, once a period', (server) => {
  it('mails the holder at 80 % and at 100 %, each once, with what happens past it; announces each for webhooks', async () => {
    const s = server();
    const events = heard(s);
    const { owner, license } = await customer(s, 100);
    await use(s, owner, license.id, 79);
    expect(await subjectsTo(s, owner.email)).toEqual([]);

    await use(s, owner, license.id, 2);
    expect(await subjectsTo(s, owner.email)).toEqual(['You have used 81% of AI chat this month']);
    const warning = await s.lastMailTo(owner.email);
    expect(warning.text).toMatch(/has used 81 of its 100 messages of AI chat this month/);
    expect(warning.text).toMatch(
      /Once it is used up, AI chat stops on your machines until the allowance resets/,
    );
    expect(warning.text).toContain(`/usage?license=${license.id}`);

    // More use, still under 100 %: no second warning.
    await use(s, owner, license.id, 5);
    await use(s, owner, license.id, 13);
    expect(await subjectsTo(s, owner.email)).toHaveLength(1);

    await use(s, owner, license.id, 1, 1);
    expect(await subjectsTo(s, owner.email)).toEqual([
      'You have used 81% of AI chat this month',
      'You have used all of AI chat this month',
    ]);
    expect(
      events.map((event) => [event.type, event.license.id, event.allowance.used, event.allowance.limit]),
    ).toEqual([
      ['usage.allowance_warning', license.id, 81, 100],
      ['usage.allowance_reached', license.id, 100, 100],
    ]);
  });

  it('says what billing past the allowance costs; one batch from under 80 % to past 100 % tells only that it is used up', async () => {
    const s = server();
    const events = heard(s);
    const { owner, license } = await customer(s, 10, {
      policy: 'bill',
      price_minor: 5000,
      per_units: 100,
      cap: null,
    });
    await use(s, owner, license.id, 1, 12);
    expect(events.map((event) => event.type)).toEqual(['usage.allowance_reached']);
    const mail = await s.lastMailTo(owner.email);
    expect(mail.subject).toBe('You have used all of AI chat this month');
    expect(mail.text).toMatch(/carries on and is billed at ₹50\.00 per 100 messages with your next renewal/);
  });

  it('writes the mail in the language the holder chose (German), its counts too', async () => {
    const s = server();
    const { owner, license } = await customer(s, 2000);
    const german = await s.api({
      method: 'PUT',
      path: '/users/me/preferences',
      token: owner.token,
      body: { language: 'de' },
    });
    expect(german.statusCode, german.body).toBe(200);
    await use(s, owner, license.id, 1700);
    const mail = await s.lastMailTo(owner.email);
    expect(mail.subject).toBe('Sie haben in diesem Monat 85\u00a0% Ihres Kontingents für AI chat verbraucht');
    expect(mail.text).toMatch(/hat in diesem Monat 1\.700 von 2\.000 messages für AI chat verbraucht/);
    expect(mail.text).toContain('Sobald es verbraucht ist, stoppt AI chat auf Ihren Geräten');
  });

  it('a holder who turned billing mail off is not mailed; integrators still hear of it', async () => {
    const s = server();
    const events = heard(s);
    const { owner, license } = await customer(s, 10);
    const off = await s.api({
      method: 'PUT',
      path: '/users/me/preferences',
      token: owner.token,
      body: { notifications: { product_updates: true, security_alerts: true, billing: false } },
    });
    expect(off.statusCode, off.body).toBe(200);
    await use(s, owner, license.id, 10);
    expect(events.map((event) => event.type)).toEqual(['usage.allowance_reached']);
    expect(await subjectsTo(s, owner.email)).toEqual([]);
  });

  it('two batches crossing 80 % at once tell it once', async () => {
    const s = server();
    const events = heard(s);
    const { owner, license } = await customer(s, 100);
    await use(s, owner, license.id, 70);
    await Promise.all(Array.from({ length: 6 }, () => use(s, owner, license.id, 5)));
    expect(events.map((event) => event.type)).toEqual(['usage.allowance_warning', 'usage.allowance_reached']);
    expect(await subjectsTo(s, owner.email)).toHaveLength(2);
  });
});
