import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { utc } from '../../../src/shared/dates.js';
import { personKey } from '../../../src/server/licensing/trials/person.js';
import { adminLicenseSchema } from '../../../src/shared/api/admin.js';
import {
  type License,
  licenseSchema,
  licenseStatusSchema,
  type TrialStarted,
  trialRefusalSchema,
  trialStartedSchema,
} from '../../../src/shared/api/licenses.js';
import type { LeaseClaims } from '../../../src/shared/lease.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  createPlan,
  DAY_MS,
  expectRefusal,
  licenseSuiteOptions,
  machine,
  type Member,
  member,
  planByCode,
  signInAgain,
  statusOf,
} from '../helpers/license-helpers.js';
import { expectVerified, openOrder, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';
import { subscribe } from '../helpers/subscription-helpers.js';
import { offerTrial, TRIAL_DAYS } from '../helpers/trial-helpers.js';

const TRIAL_PLAN = 'pro-monthly';

const startTrial = (s: TestServer, who: Member, body: unknown) =>
  s.api({ method: 'POST', path: '/licenses/trials', token: who.token, body });

function expectStarted(response: LightMyRequestResponse): TrialStarted {
  expect(response.statusCode, response.body).toBe(201);
  return trialStartedSchema.parse(response.json());
}

function expectTrialRefusal(response: LightMyRequestResponse, code: string) {
  expectApiError(response, 409, code);
  return trialRefusalSchema.parse(response.json());
}

/** A customer whose e-mail address is `email` (a fresh one unless given). */
async function customer(s: TestServer, email?: string): Promise<Member> {
  if (!email) return member(s);
  const user = await s.app.authService.createAccount({
    email,
    password: 'correct horse battery staple 42',
    role: 'user',
    verified: true,
  });
  const tokens = await s.login(email, 'correct horse battery staple 42');
  return { id: user.id, email, token: tokens.access_token };
}

const licenseOf = async (s: TestServer, who: Member, id: string): Promise<License> => {
  const response = await s.api({ path: `/licenses/${id}`, token: who.token });
  expect(response.statusCode, response.body).toBe(200);
  return licenseSchema.parse(response.json());
};

/** The domain events of a type announced while `run` ran, by license id. */
async function announced<T>(s: TestServer, type: string, run: () => Promise<T>): Promise<[T, string[]]> {
  const heard: string[] = [];
  let listening = true;
  // A license event's type is a union, which the bus's per-type listener cannot narrow to.
  const listener = (_trx: unknown, event: { license: { id: string } }) => {
    if (listening) heard.push(event.license.id);
    return Promise.resolve();
  };
  s.app.events.on(type as never, listener as never);
  try {
    return [await run(), heard];
  } finally {
    listening = false;
  }
}

const mailsTo = async (s: TestServer, email: string) =>
  (await s.outbox()).filter((mail) => mail.to.includes(email)).map((mail) => mail.subject);

describe('one person, whatever the address variant', () => {
  it('drops +tags everywhere and dots at Gmail, whose two domains are one', () => {
    expect(personKey(' Ann.Lee+trial@Example.com ')).toBe('ann.lee@example.com');
    expect(personKey('a.n.n.lee+x@gmail.com')).toBe('annlee@gmail.com');
    expect(personKey('AnnLee@googlemail.com')).toBe('annlee@gmail.com');
    expect(personKey('ann.lee@outlook.com')).not.toBe(personKey('annlee@outlook.com'));
  });
});

describeOnEveryDatabase(
  'free trials without a card',
  (server) => {
    it('the plan form takes trial days, refusing bad ones and a trial of a free plan', async () => {
      const s = server();
      const admin = await member(s, 'admin');
      const pro = await planByCode(s, 'pro-yearly');
      const base = await planByCode(s, 'base');
      for (const trial_days of [-1, 1.5, 91, 'ten'])
        expectApiError(
          await s.api({ method: 'PUT', path: `/plans/${pro.id}`, token: admin.token, body: { trial_days } }),
          400,
          'validation_error',
        );
      expectApiError(
        await s.api({
          method: 'PUT',
          path: `/plans/${base.id}`,
          token: admin.token,
          body: { trial_days: 7 },
        }),
        400,
        'validation_error',
      );
      expect((await planByCode(s, 'pro-yearly')).trial_days).toBe(0);
      expect((await planByCode(s, 'base')).trial_days).toBe(0);
    });

    it('starts a trial in one call: the license, this machine, the check and the lease say 14 days left', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const hw = machine('trial');
      const [started, heard] = await announced(s, 'license.trial_started', async () =>
        expectStarted(
          await startTrial(s, ann, { plan_id: plan.id, hardware_id: hw, device_name: 'Ann’s laptop' }),
        ),
      );
      expect(heard).toEqual([started.license_id]);
      expect(started).toMatchObject({
        status: 'active',
        plan: { code: TRIAL_PLAN },
        trial: { days_left: TRIAL_DAYS, source: 'account' },
        activation: { hardware_id: hw, device_name: 'Ann’s laptop' },
      });
      expect(started.message).toMatch(/free trial of .+ has started: 14 days/);
      const endsAt = Date.parse(started.trial?.ends_at ?? '');
      expect(endsAt - s.clock.now().getTime()).toBeGreaterThan(TRIAL_DAYS * DAY_MS - 60_000);
      expect(started.expires_at).toBe(started.trial?.ends_at);

      const check = await statusOf(s, started.license_key, hw);
      expect(check.statusCode, check.body).toBe(200);
      const answer = licenseStatusSchema.parse(check.json());
      expect(answer.trial).toEqual({ ends_at: started.trial?.ends_at, days_left: TRIAL_DAYS });
      expect(answer.message).toBe('Free trial: 14 days left');
      const claims = decodeJwt(answer.lease) as unknown as LeaseClaims;
      expect(claims.trial).toEqual({ ends_at: started.trial?.ends_at, days_left: TRIAL_DAYS });
      // The lease never outlives the trial.
      expect(claims.exp * 1000).toBeLessThanOrEqual(endsAt);

      // Without a machine: the license only, activated later like any other.
      const bea = await member(s);
      const web = expectStarted(await startTrial(s, bea, { plan_id: TRIAL_PLAN }));
      expect(web.activation).toBeUndefined();
      expect(web.trial?.days_left).toBe(TRIAL_DAYS);
    });

    it('refuses bad input and plans without a trial with clear 4xx answers', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      expectApiError(
        await s.api({ method: 'POST', path: '/licenses/trials', body: { plan_id: plan.id } }),
        401,
        'not_authenticated',
      );
      for (const body of [
        {},
        { plan_id: '' },
        { plan_id: plan.id, hardware_id: 'short' },
        { plan_id: plan.id, hardware_id: 'has spaces in it' },
        { plan_id: plan.id, extra: true },
      ])
        expectApiError(await startTrial(s, ann, body), 400, 'validation_error');
      expectApiError(await startTrial(s, ann, { plan_id: 'no-such-plan' }), 404, 'plan_not_found');
      expectTrialRefusal(await startTrial(s, ann, { plan_id: 'pro-yearly' }), 'trial_not_offered');
      expectTrialRefusal(await startTrial(s, ann, { plan_id: 'base' }), 'trial_not_offered');
      // Someone who owns the plan already has nothing to try.
      const owner = await member(s);
      await subscribe(s, owner, TRIAL_PLAN);
      expectTrialRefusal(await startTrial(s, owner, { plan_id: plan.id }), 'plan_already_owned');
      expect(
        await s.app.db
          .selectFrom('license_trials')
          .where('user_id', 'in', [ann.id, owner.id])
          .selectAll()
          .execute(),
      ).toEqual([]);
    });

    it('one trial per account, per person (+tags, Gmail dots) and per machine, each refusal saying when it ran', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const name = `ann.lee.${Date.now()}`;
      const ann = await customer(s, `${name}@gmail.com`);
      const hw = machine('once');
      const first = expectStarted(await startTrial(s, ann, { plan_id: plan.id, hardware_id: hw }));

      const again = expectTrialRefusal(await startTrial(s, ann, { plan_id: plan.id }), 'trial_already_used');
      expect(again.earlier_trial).toEqual({
        started_at: first.trial?.started_at,
        ends_at: first.trial?.ends_at,
      });
      expect(again.message).toMatch(/^You already had a free trial of .+ \(from .+ to .+\)\. Buy/);

      const variant = await customer(s, `${name.replaceAll('.', '')}+again@googlemail.com`);
      const person = expectTrialRefusal(
        await startTrial(s, variant, { plan_id: plan.id }),
        'trial_already_used',
      );
      expect(person.message).toMatch(/This e-mail address already had a free trial/);

      const other = await member(s);
      const sameMachine = expectTrialRefusal(
        await startTrial(s, other, { plan_id: plan.id, hardware_id: hw }),
        'machine_trial_used',
      );
      expect(sameMachine.earlier_trial?.started_at).toBe(first.trial?.started_at);
      // Another machine of the other account may try it.
      expectStarted(await startTrial(s, other, { plan_id: plan.id, hardware_id: machine('other') }));
    });

    it('two starts at once make exactly one trial: one account twice, and two accounts on one machine', async () => {
      const s = server();
      const plan = await offerTrial(s);
      for (let round = 0; round < 3; round++) {
        const ann = await member(s);
        const answers = await Promise.all([
          startTrial(s, ann, { plan_id: plan.id, hardware_id: machine('a') }),
          startTrial(s, ann, { plan_id: plan.id, hardware_id: machine('b') }),
        ]);
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
        const licenses = await s.app.db
          .selectFrom('licenses')
          .selectAll()
          .where('user_id', '=', ann.id)
          .execute();
        expect(licenses).toHaveLength(1);

        const hw = machine('shared');
        const [one, two] = [await member(s), await member(s)];
        const shared = await Promise.all([
          startTrial(s, one, { plan_id: plan.id, hardware_id: hw }),
          startTrial(s, two, { plan_id: plan.id, hardware_id: hw }),
        ]);
        expect(shared.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
        const refused = shared.find((answer) => answer.statusCode === 409) as LightMyRequestResponse;
        expect(trialRefusalSchema.parse(refused.json()).code).toBe('machine_trial_used');
        const trials = await s.app.db
          .selectFrom('license_trials')
          .selectAll()
          .where('hardware_id', '=', hw)
          .execute();
        expect(trials).toHaveLength(1);
        const orphans = await s.app.db
          .selectFrom('licenses')
          .select('id')
          .where('user_id', 'in', [one.id, two.id])
          .execute();
        expect(orphans).toHaveLength(1);
      }
    });

    it('two instances on one database, one machine’s two trials at once: exactly one', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const second = await buildApp(s.config, { clock: s.clock, logger: false });
      try {
        const hw = machine('cluster');
        const [one, two] = [await member(s), await member(s)];
        const answers = await Promise.all([
          startTrial(s, one, { plan_id: plan.id, hardware_id: hw }),
          second.inject({
            method: 'POST',
            url: '/api/v1/licenses/trials',
            headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${two.token}` },
            payload: { plan_id: plan.id, hardware_id: hw },
          }),
        ]);
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
        const trials = await s.app.db
          .selectFrom('license_trials')
          .selectAll()
          .where('hardware_id', '=', hw)
          .execute();
        expect(trials).toHaveLength(1);
      } finally {
        await second.close();
      }
    });

    it('reminds three days before and on the last day, once each, then ends unpaid as trial_expired', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const hw = machine('clock');
      s.clock.freeze();
      const started = expectStarted(await startTrial(s, ann, { plan_id: plan.id, hardware_id: hw }));
      const ending = (subjects: string[]) => subjects.filter((subject) => /free trial .* ends/.test(subject));

      s.clock.advance(10 * DAY_MS);
      await s.app.scheduler.runOnce();
      expect(ending(await mailsTo(s, ann.email))).toEqual([]);

      s.clock.advance(1 * DAY_MS);
      const [, reminded] = await announced(s, 'license.trial_ending', async () => {
        await s.app.scheduler.runOnce();
        await s.app.scheduler.runOnce();
      });
      expect(reminded.filter((id) => id === started.license_id)).toHaveLength(1);
      expect(ending(await mailsTo(s, ann.email))).toHaveLength(1);
      const reminder = await s.lastMailTo(ann.email);
      expect(reminder.text).toMatch(/nothing will be charged/);
      expect(reminder.text).toContain(`/purchase?plan=${plan.id}`);
      const check = licenseStatusSchema.parse((await statusOf(s, started.license_key, hw)).json());
      expect(check.trial?.days_left).toBe(3);

      s.clock.advance(2 * DAY_MS + 60_000);
      await s.app.scheduler.runOnce();
      await s.app.scheduler.runOnce();
      const subjects = ending(await mailsTo(s, ann.email));
      expect(subjects).toHaveLength(2);
      expect(subjects[1]).toMatch(/ends today$/);

      s.clock.advance(DAY_MS);
      const [, expired] = await announced(s, 'license.trial_expired', async () => {
        await s.app.scheduler.runOnce();
        await s.app.scheduler.runOnce();
      });
      expect(expired.filter((id) => id === started.license_id)).toHaveLength(1);
      expect((await mailsTo(s, ann.email)).filter((subject) => /has ended$/.test(subject))).toHaveLength(1);
      const refused = expectRefusal(
        await statusOf(s, started.license_key, hw),
        403,
        'trial_expired',
        'trial_expired',
      );
      expect(refused.message).toMatch(/^Your free trial ended on .+\. Buy the plan on the Purchase page/);
      await signInAgain(s, ann);
      const view = await licenseOf(s, ann, started.license_id);
      expect(view).toMatchObject({ status: 'trial_expired', trial: { days_left: 0 } });
    });

    it('writes the reminder and the end in the language the customer chose (German)', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const german = await s.api({
        method: 'PUT',
        path: '/users/me/preferences',
        token: ann.token,
        body: { language: 'de' },
      });
      expect(german.statusCode, german.body).toBe(200);
      s.clock.freeze();
      expectStarted(await startTrial(s, ann, { plan_id: plan.id, hardware_id: machine('german') }));
      s.clock.advance(11 * DAY_MS);
      await s.app.scheduler.runOnce();
      await s.app.scheduler.runOnce();
      const reminder = await s.lastMailTo(ann.email);
      expect(reminder.subject).toMatch(/^Ihre kostenlose Testphase für .+ endet am /);
      expect(reminder.text).toContain('Sie haben keine Karte angegeben, daher wird nichts berechnet.');
      s.clock.advance(3 * DAY_MS + 60_000);
      await s.app.scheduler.runOnce();
      await s.app.scheduler.runOnce();
      expect((await mailsTo(s, ann.email)).filter((subject) => /ist abgelaufen$/.test(subject))).toHaveLength(
        1,
      );
    });

    it('buying while on trial keeps the license, its key and machine; the paid period starts at the purchase', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const hw = machine('buy');
      s.clock.freeze();
      const started = expectStarted(await startTrial(s, ann, { plan_id: plan.id, hardware_id: hw }));
      s.clock.advance(5 * DAY_MS);
      await signInAgain(s, ann);
      const [bought, converted] = await announced(s, 'license.trial_converted', () =>
        subscribe(s, ann, TRIAL_PLAN),
      );
      expect(converted.filter((id) => id === started.license_id)).toHaveLength(1);
      expect(bought.license.license_id).toBe(started.license_id);
      const view = await licenseOf(s, ann, started.license_id);
      expect(view).toMatchObject({
        license_key: started.license_key,
        status: 'active',
        trial: null,
        renews: true,
      });
      expect(view.subscription_id).toBe(bought.subscription.id);
      // The first paid month runs from the purchase, not from the trial's end.
      const now = s.clock.now();
      const month = Date.parse(view.expires_at ?? '') - now.getTime();
      expect(month).toBeGreaterThanOrEqual(28 * DAY_MS);
      expect(month).toBeLessThanOrEqual(31 * DAY_MS);
      const check = licenseStatusSchema.parse((await statusOf(s, started.license_key, hw)).json());
      expect(check).toMatchObject({ trial: null, activation_id: started.activation?.activation_id });
      expect(
        (await s.app.db.selectFrom('licenses').select('id').where('user_id', '=', ann.id).execute()).length,
      ).toBe(1);
      const trial = await s.app.db
        .selectFrom('license_trials')
        .selectAll()
        .where('license_id', '=', started.license_id)
        .executeTakeFirstOrThrow();
      expect(trial.converted_at).toBe(now.toISOString());
      // Bought, it is not a trial any more, and no trial notice follows.
      s.clock.advance(20 * DAY_MS);
      await s.app.scheduler.runOnce();
      expect((await mailsTo(s, ann.email)).filter((subject) => /free trial/.test(subject))).toEqual([]);
    });

    it('a one-off purchase of a perpetual plan converts its trial: the same license, never expiring, its update window from the purchase', async () => {
      const s = server();
      const lifetime = await createPlan(s, {
        price: 99_900,
        interval: 'lifetime',
        trialDays: 7,
        updateMonths: 12,
      });
      let ann = await member(s);
      const hw = machine('order');
      const started = expectStarted(await startTrial(s, ann, { plan_id: lifetime.id, hardware_id: hw }));
      expect(started.trial?.days_left).toBe(7);
      // Bought five days into the trial: the year of updates starts at the purchase.
      s.clock.advance(5 * DAY_MS);
      ann = await signInAgain(s, ann);
      const boughtAt = s.clock.now();
      const order = await openOrder(s, ann.token, lifetime.id);
      const verified = expectVerified(
        await verifyPayment(s, ann.token, await payInSandbox(s, ann.token, order.order_id)),
      );
      expect(verified.license).toMatchObject({
        license_id: started.license_id,
        license_key: started.license_key,
        expires_at: null,
        status: 'active',
        trial: null,
      });
      const until = Date.parse(verified.license.updates_until ?? '');
      expect(until).toBeGreaterThanOrEqual(Date.parse(utc(boughtAt).add(12, 'month').toISOString()));
      expect(until).toBeLessThanOrEqual(Date.parse(utc(s.clock.now()).add(12, 'month').toISOString()));
      const check = licenseStatusSchema.parse((await statusOf(s, started.license_key, hw)).json());
      expect(check).toMatchObject({ trial: null, expires_at: null, update_window_ended: false });
    });

    it('a trial that ended unpaid is bought back to life with the same license', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const hw = machine('late');
      s.clock.freeze();
      const started = expectStarted(await startTrial(s, ann, { plan_id: plan.id, hardware_id: hw }));
      s.clock.advance((TRIAL_DAYS + 2) * DAY_MS);
      await signInAgain(s, ann);
      expectRefusal(await statusOf(s, started.license_key, hw), 403, 'trial_expired', 'trial_expired');
      const bought = await subscribe(s, ann, TRIAL_PLAN);
      expect(bought.license.license_id).toBe(started.license_id);
      expect((await statusOf(s, started.license_key, hw)).statusCode).toBe(200);
    });

    it('administrators see the trial’s source and end, extend it, end it, and are refused on other licenses', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const admin = await member(s, 'admin');
      const ann = await member(s);
      s.clock.freeze();
      const started = expectStarted(await startTrial(s, ann, { plan_id: plan.id }));
      const change = (id: string, body: unknown) =>
        s.api({ method: 'POST', path: `/admin/licenses/${id}/trial`, token: admin.token, body });

      const seen = adminLicenseSchema.parse(
        (await s.api({ path: `/admin/licenses/${started.license_id}`, token: admin.token })).json(),
      );
      expect(seen.trial).toMatchObject({ source: 'account', ends_at: started.trial?.ends_at });

      for (const body of [{}, { action: 'extend' }, { action: 'extend', days: 0 }, { action: 'stop' }])
        expectApiError(await change(started.license_id, body), 400, 'validation_error');
      expectApiError(
        await s.api({ method: 'POST', path: `/licenses/trials`, token: admin.token, body: { plan_id: 'x' } }),
        404,
        'plan_not_found',
      );

      const extended = await change(started.license_id, { action: 'extend', days: 5 });
      expect(extended.statusCode, extended.body).toBe(200);
      const after = adminLicenseSchema.parse(extended.json());
      expect(Date.parse(after.trial?.ends_at ?? '') - Date.parse(started.trial?.ends_at ?? '')).toBe(
        5 * DAY_MS,
      );
      expect(after.trial?.days_left).toBe(TRIAL_DAYS + 5);
      expect(after.expires_at).toBe(after.trial?.ends_at);

      const ended = await change(started.license_id, { action: 'end' });
      expect(ended.statusCode, ended.body).toBe(200);
      expect(adminLicenseSchema.parse(ended.json())).toMatchObject({
        status: 'trial_expired',
        trial: { days_left: 0 },
      });
      expectApiError(await change(started.license_id, { action: 'end' }), 409, 'trial_already_ended');
      // Extended again after its end: from now.
      const revived = adminLicenseSchema.parse(
        (await change(started.license_id, { action: 'extend', days: 2 })).json(),
      );
      expect(revived).toMatchObject({ status: 'active', trial: { days_left: 2 } });

      const paid = await member(s);
      const bought = await subscribe(s, paid, 'pro-yearly');
      expectApiError(
        await change(bought.license.license_id, { action: 'extend', days: 3 }),
        409,
        'license_not_trial',
      );
      expectApiError(
        await change('00000000-0000-4000-8000-000000000000', { action: 'end' }),
        404,
        'license_not_found',
      );
      // Its expiry is the trial's: changed through the trial only.
      expectApiError(
        await s.api({
          method: 'PUT',
          path: `/admin/licenses/${started.license_id}`,
          token: admin.token,
          body: { expires_at: new Date(s.clock.now().getTime() + 90 * DAY_MS).toISOString() },
        }),
        409,
        'license_is_trial',
      );
      expectApiError(
        await s.api({
          method: 'POST',
          path: `/admin/licenses/${started.license_id}/trial`,
          token: ann.token,
          body: { action: 'end' },
        }),
        403,
        'admin_required',
      );
    });
  },
  licenseSuiteOptions,
);
