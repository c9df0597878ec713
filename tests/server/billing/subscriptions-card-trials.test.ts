import { expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import type { PlanRow } from '../../../src/server/platform/db/tables.js';
import { utc } from '../../../src/shared/dates.js';
import { licenseSchema, licenseStatusSchema, trialRefusalSchema } from '../../../src/shared/api/licenses.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  DAY_MS,
  expectActivation,
  expectRefusal,
  licenseSuiteOptions,
  machine,
  type Member,
  member,
  planByCode,
  signInAgain,
  statusOf,
} from '../helpers/license-helpers.js';
import {
  chargesOf,
  licenseRow,
  paidCheckout,
  subscribe,
  subscriptionRow,
} from '../helpers/subscription-helpers.js';
import { offerTrial, TRIAL_DAYS } from '../helpers/trial-helpers.js';

const openTrialCheckout = (s: TestServer, who: Member, body: Record<string, unknown>) =>
  s.api({ method: 'POST', path: '/subscriptions', token: who.token, body: { trial: true, ...body } });

/** Checks a plan out with its trial in the sandbox and authorises the card: the trial's answer. */
const startCardTrial = (s: TestServer, who: Member, plan: PlanRow, hardwareId?: string) =>
  subscribe(s, who, plan.code, { trial: true, ...(hardwareId ? { hardwareId } : {}) });

const invoicesOf = (s: TestServer, paymentIds: string[]) =>
  paymentIds.length === 0
    ? Promise.resolve([])
    : s.app.db.selectFrom('invoices').selectAll().where('payment_id', 'in', paymentIds).execute();

const mailsTo = async (s: TestServer, email: string) =>
  (await s.outbox()).filter((mail) => mail.to.includes(email));

async function licenseView(s: TestServer, who: Member, id: string) {
  await signInAgain(s, who);
  const response = await s.api({ path: `/licenses/${id}`, token: who.token });
  expect(response.statusCode, response.body).toBe(200);
  return licenseSchema.parse(response.json());
}

describeOnEveryDatabase(
  'card trials on the sandbox: the subscription charges first at the trial’s end',
  (server) => {
    it('checkout with a trial → trial license (source card), nothing charged or invoiced → reminder says the card will be charged → the test clock reaches the end → charged once, the trial converted (license, key and machine kept), invoice issued', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      s.clock.freeze();
      const startedAt = s.clock.now();
      const started = await startCardTrial(s, ann, plan);
      const trialEnd = utc(startedAt).add(TRIAL_DAYS, 'day').toISOString();

      expect(started.checkout).toMatchObject({ amount: 0, sandbox: true });
      expect(started.checkout.subscription.trial_ends_at).toBe(trialEnd);
      expect(started.charge).toBeNull();
      expect(started.subscription).toMatchObject({
        status: 'active',
        trial_ends_at: trialEnd,
        current_period_end: trialEnd,
        license_id: null,
        next_charge: { at: trialEnd, amount_minor: plan.price_minor, currency: plan.currency },
      });
      expect(started.license).toMatchObject({
        status: 'active',
        expires_at: trialEnd,
        subscription_id: started.subscription.id,
        trial: { ends_at: trialEnd, days_left: TRIAL_DAYS, source: 'card' },
      });
      const trialRow = await s.app.db
        .selectFrom('license_trials')
        .selectAll()
        .where('license_id', '=', started.license.license_id)
        .executeTakeFirstOrThrow();
      expect(trialRow).toMatchObject({ source: 'card', ends_at: trialEnd, converted_at: null });
      // The authorisation is no charge: no payment, no invoice.
      expect(await chargesOf(s, started.subscription.id)).toEqual([]);
      const hw = machine('card');
      expectActivation(await activate(s, ann.token, started.license.license_key, hw), 201);

      // Three days before the end: the reminder says the card will be charged, how much and when.
      s.clock.advance((TRIAL_DAYS - 3) * DAY_MS + 60_000);
      await s.app.scheduler.runOnce();
      const reminder = await s.lastMailTo(ann.email);
      expect(reminder.subject).toMatch(/^Your card will be charged .+ for Pro.* on /);
      expect(reminder.text).toMatch(/your card will be charged .+, the first charge of your subscription/);
      expect(reminder.text).not.toMatch(/nothing will be charged/);
      expect(reminder.text).toContain('/subscriptions');
      // The yearly-renewal reminder of billing does not tell it a second time.
      expect((await mailsTo(s, ann.email)).filter((mail) => /renew/i.test(mail.subject))).toEqual([]);

      // The trial's end: the sandbox charges the first period, once however often the scheduler runs.
      s.clock.advance(Date.parse(trialEnd) - s.clock.now().getTime() + 60_000);
      await s.app.scheduler.runOnce();
      await s.app.scheduler.runOnce();
      const charged = await subscriptionRow(s, started.subscription.id);
      const periodEnd = utc(trialEnd).add(1, 'month').toISOString();
      expect(charged).toMatchObject({
        status: 'active',
        cycles: 1,
        license_id: started.license.license_id,
        current_period_start: trialEnd,
        current_period_end: periodEnd,
      });
      const charges = await chargesOf(s, started.subscription.id);
      expect(
        charges.map((charge) => [charge.status, Number(charge.amount_minor), charge.period_start]),
      ).toEqual([['paid', plan.price_minor, trialEnd]]);
      expect(
        await invoicesOf(
          s,
          charges.map((charge) => charge.id),
        ),
      ).toHaveLength(1);
      const license = await licenseRow(s, started.license.license_id);
      expect(license).toMatchObject({
        license_key: started.license.license_key,
        trial_ends_at: null,
        expires_at: periodEnd,
        subscription_id: started.subscription.id,
      });
      const converted = await s.app.db
        .selectFrom('license_trials')
        .select('converted_at')
        .where('license_id', '=', license.id)
        .executeTakeFirstOrThrow();
      expect(converted.converted_at).not.toBeNull();
      const check = licenseStatusSchema.parse((await statusOf(s, license.license_key, hw)).json());
      expect(check).toMatchObject({ valid: true, trial: null });
      // Converted, not ended: no "trial has ended" mail.
      expect((await mailsTo(s, ann.email)).filter((mail) => /has ended$/.test(mail.subject))).toEqual([]);
    });

    it('refusals: a plan without a trial, a trial already had (with when it ran), a machine that had one, a hardware id without a trial', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const yearly = await planByCode(s, 'pro-yearly');

      const noTrial = await openTrialCheckout(s, ann, { plan_id: yearly.id });
      expectApiError(noTrial, 409, 'trial_not_offered');
      expect(noTrial.json<{ message: string }>().message).toMatch(/has no free trial/);

      const hw = machine('once');
      await startCardTrial(s, ann, plan, hw);
      const again = await openTrialCheckout(s, ann, { plan_id: plan.id });
      expect(again.statusCode).toBe(409);
      // A live subscription to the plan comes first…
      expect(again.json<{ code: string }>().code).toBe('already_subscribed');

      // …another account on the same machine is refused with when the earlier trial ran.
      const bob = await member(s);
      const machineRefusal = await openTrialCheckout(s, bob, { plan_id: plan.id, hardware_id: hw });
      expectApiError(machineRefusal, 409, 'machine_trial_used');
      const refusal = trialRefusalSchema.parse(machineRefusal.json());
      expect(refusal.message).toMatch(/^This machine already had a free trial of Pro.* \(from .+ to .+\)/);
      expect(refusal.earlier_trial?.started_at).toBeTruthy();

      const stray = await s.api({
        method: 'POST',
        path: '/subscriptions',
        token: bob.token,
        body: { plan_id: plan.id, hardware_id: machine('stray') },
      });
      expectApiError(stray, 400, 'hardware_id_without_trial');
      const badType = await openTrialCheckout(s, bob, { plan_id: plan.id, trial: 'yes' });
      expect(badType.statusCode).toBe(400);

      // A trial without a card of the plan counts too.
      const cy = await member(s);
      const free = await s.api({
        method: 'POST',
        path: '/licenses/trials',
        token: cy.token,
        body: { plan_id: plan.id },
      });
      expect(free.statusCode, free.body).toBe(201);
      const used = await openTrialCheckout(s, cy, { plan_id: plan.id });
      expectApiError(used, 409, 'trial_already_used');
      expect(used.json<{ message: string }>().message).toMatch(
        /^You already had a free trial of Pro.* \(from /,
      );
    });

    it('canceling during the trial costs nothing: no charge ever, the license stays a trial until its end and then reads trial_expired', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      s.clock.freeze();
      const started = await startCardTrial(s, ann, plan);
      const hw = machine('cancel');
      expectActivation(await activate(s, ann.token, started.license.license_key, hw), 201);

      s.clock.advance(5 * DAY_MS);
      await signInAgain(s, ann);
      const cancelled = await s.api({
        method: 'POST',
        path: `/subscriptions/${started.subscription.id}/cancel`,
        token: ann.token,
        body: {},
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json()).toMatchObject({
        status: 'cancelled',
        next_charge: null,
        cancel_now_refund_minor: 0,
      });
      const mail = await s.lastMailTo(ann.email);
      expect(mail.subject).toMatch(/subscription is canceled$/);
      expect(mail.text).toMatch(/canceled during its free trial, so your card is never charged/);
      // Still a trial, running to its end.
      expect((await statusOf(s, started.license.license_key, hw)).statusCode).toBe(200);

      const trialEnd = started.subscription.trial_ends_at as string;
      s.clock.advance(Date.parse(trialEnd) - s.clock.now().getTime() + 60_000);
      await s.app.scheduler.runOnce();
      await s.app.scheduler.runOnce();
      expect(await chargesOf(s, started.subscription.id)).toEqual([]);
      expect(await subscriptionRow(s, started.subscription.id)).toMatchObject({
        status: 'cancelled',
        cycles: 0,
      });
      expectRefusal(
        await statusOf(s, started.license.license_key, hw),
        403,
        'trial_expired',
        'trial_expired',
      );
      expect((await licenseView(s, ann, started.license.license_id)).status).toBe('trial_expired');
      expect((await mailsTo(s, ann.email)).filter((mail) => /has ended$/.test(mail.subject))).toHaveLength(1);
    });

    it('a plan change waits for the first charge', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const started = await startCardTrial(s, ann, plan);
      const yearly = await planByCode(s, 'pro-yearly');
      const quote = await s.api({
        method: 'POST',
        path: `/subscriptions/${started.subscription.id}/plan/quote`,
        token: ann.token,
        body: { plan_id: yearly.id },
      });
      expectApiError(quote, 409, 'subscription_in_trial');
    });

    it('a cancel racing the renewal at the trial’s end: exactly one wins, nothing half-written', async () => {
      const s = server();
      const plan = await offerTrial(s);
      for (let round = 0; round < 3; round++) {
        const buyer = await member(s);
        const started = await startCardTrial(s, buyer, plan);
        const trialEnd = started.subscription.trial_ends_at as string;
        s.clock.advance(Date.parse(trialEnd) - s.clock.now().getTime() + 1000);
        await signInAgain(s, buyer);
        const [cancel] = await Promise.all([
          s.api({
            method: 'POST',
            path: `/subscriptions/${started.subscription.id}/cancel`,
            token: buyer.token,
            body: {},
          }),
          // The scheduler's pass: the sandbox's renewal of what fell due (the first charge).
          s.app.scheduler.runOnce(),
        ]);
        // Whichever came second finds the first's outcome; the cancel is refused only if it came
        // second to nothing (it never is).
        expect(cancel.statusCode, cancel.body).toBe(200);
        const row = await subscriptionRow(s, started.subscription.id);
        const charges = await chargesOf(s, started.subscription.id);
        const license = await licenseRow(s, started.license.license_id);
        if (row.cycles === 0) {
          // The cancel won: no charge, the license is still the (ending) trial.
          expect(row.status).toBe('cancelled');
          expect(charges.filter((charge) => charge.status === 'paid')).toEqual([]);
          expect(license.trial_ends_at).toBe(trialEnd);
        } else {
          // The charge won: one paid charge, the trial converted, and the cancel an ordinary one
          // at the end of the paid period.
          expect(row).toMatchObject({ status: 'active', cycles: 1, cancel_at_period_end: 1 });
          expect(charges.filter((charge) => charge.status === 'paid')).toHaveLength(1);
          expect(
            await invoicesOf(
              s,
              charges.map((charge) => charge.id),
            ),
          ).toHaveLength(1);
          expect(license).toMatchObject({ trial_ends_at: null, expires_at: row.current_period_end });
        }
      }
    });

    it('two instances on one database, two accounts’ card trials on one machine authorised at once: exactly one trial; the other refused (machine_trial_used), canceled, nothing half-written', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const second = await buildApp(s.config, { clock: s.clock, logger: false });
      try {
        const hw = machine('cluster');
        const buyers = [await member(s), await member(s)];
        const opened = await Promise.all(
          buyers.map((buyer) => paidCheckout(s, buyer, plan.code, { trial: true, hardwareId: hw })),
        );
        const [one, two] = opened as [(typeof opened)[number], (typeof opened)[number]];
        const answers = await Promise.all([
          s.api({ method: 'POST', path: '/subscriptions/verify', token: buyers[0]?.token, body: one.answer }),
          second.inject({
            method: 'POST',
            url: '/api/v1/subscriptions/verify',
            headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${buyers[1]?.token ?? ''}` },
            payload: two.answer,
          }),
        ]);
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
        const refused = answers.find((answer) => answer.statusCode === 409);
        expect(trialRefusalSchema.parse(refused?.json()).code).toBe('machine_trial_used');
        const trials = await s.app.db
          .selectFrom('license_trials')
          .selectAll()
          .where('hardware_id', '=', hw)
          .execute();
        expect(trials).toHaveLength(1);
        const rows = await Promise.all(
          [one, two].map((opened) => subscriptionRow(s, opened.checkout.subscription.id)),
        );
        expect(rows.map((row) => row.status).sort()).toEqual(['active', 'cancelled']);
        const licenses = await s.app.db
          .selectFrom('licenses')
          .select('id')
          .where(
            'user_id',
            'in',
            buyers.map((buyer) => buyer.id),
          )
          .execute();
        expect(licenses).toHaveLength(1);
        for (const row of rows) expect(await chargesOf(s, row.id)).toEqual([]);
      } finally {
        await second.close();
      }
    });

    it('two trial checkouts of one account authorised at once: one trial; the other is refused and canceled, nothing charged', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const open = () => paidCheckout(s, ann, plan.code, { trial: true });
      const [first, second] = [await open(), await open()];
      const answers = await Promise.all(
        [first, second].map((one) =>
          s.api({ method: 'POST', path: '/subscriptions/verify', token: ann.token, body: one.answer }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const refused = answers.find((answer) => answer.statusCode === 409);
      expect(['trial_already_used', 'already_subscribed']).toContain(refused?.json<{ code: string }>().code);
      const rows = await Promise.all(
        [first, second].map((one) => subscriptionRow(s, one.checkout.subscription.id)),
      );
      expect(rows.map((row) => row.status).sort()).toEqual(['active', 'cancelled']);
      const trials = await s.app.db
        .selectFrom('license_trials')
        .selectAll()
        .where('user_id', '=', ann.id)
        .execute();
      expect(trials).toHaveLength(1);
      const licenses = await s.app.db
        .selectFrom('licenses')
        .selectAll()
        .where('user_id', '=', ann.id)
        .execute();
      expect(licenses.filter((license) => license.trial_ends_at !== null)).toHaveLength(1);
    });
  },
  licenseSuiteOptions,
);
