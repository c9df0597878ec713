import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import {
  leaseSigningKeysSchema,
  trialRefusalSchema,
  trialStartedSchema,
} from '../../../src/shared/api/licenses.js';
import { type MachineTrial, machineTrialSchema } from '../../../src/shared/api/machine-trials.js';
import { verifyLease } from '../../../src/shared/lease.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  activateBase,
  createPlan,
  DAY_MS,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  machine,
  type Member,
  member,
  signInAgain,
} from '../helpers/license-helpers.js';

const TRIAL_DAYS = 14;

/** A plan on offer with a 14-day trial (a fresh one per test: the suite's server is shared). */
const trialPlan = (s: TestServer, price = 49_900) =>
  createPlan(s, { price, interval: 'month', trialDays: TRIAL_DAYS, features: { ai_chat: 100 } });

/** The desktop's call: the hardware id and the app's API key, no sign-in. */
const startMachineTrial = (s: TestServer, body: unknown) =>
  s.api({ method: 'POST', path: '/machine-trials', body });

function expectTrial(response: LightMyRequestResponse, status: 200 | 201): MachineTrial {
  expect(response.statusCode, response.body).toBe(status);
  return machineTrialSchema.parse(response.json());
}

function expectRefused(response: LightMyRequestResponse, code: string) {
  expectApiError(response, 409, code);
  return trialRefusalSchema.parse(response.json());
}

const startAccountTrial = (s: TestServer, who: Member, body: unknown) =>
  s.api({ method: 'POST', path: '/licenses/trials', token: who.token, body });

const machineTrialRows = (s: TestServer, hardwareId: string) =>
  s.app.db.selectFrom('machine_trials').selectAll().where('hardware_id', '=', hardwareId).execute();

async function publicKeys(s: TestServer) {
  const response = await s.api({ path: '/licensing/public-key' });
  return leaseSigningKeysSchema.parse(response.json());
}

describe('machine trials', () => {
  describeOnEveryDatabase(
    'a machine’s trial before any account',
    (server) => {
      it('starts with a signed lease marked machine trial; asking again answers the same trial, then after its end says when it ran', async () => {
        const s = server();
        const plan = await trialPlan(s);
        const hw = machine('try');
        s.clock.freeze();
        const started = expectTrial(await startMachineTrial(s, { hardware_id: hw, plan_id: plan.code }), 201);
        expect(started).toMatchObject({
          plan: { id: plan.id, code: plan.code },
          trial: { days_left: TRIAL_DAYS },
          started_at: s.clock.now().toISOString(),
        });
        expect(Date.parse(started.trial.ends_at) - s.clock.now().getTime()).toBe(TRIAL_DAYS * DAY_MS);
        expect(started.message).toMatch(/has started: 14 days, .+ Create an account to keep it\.$/);

        const verified = await verifyLease(started.lease, {
          keys: await publicKeys(s),
          hardwareId: hw,
          nowSeconds: Math.floor(s.clock.now().getTime() / 1000),
        });
        if (!verified.ok) throw new Error(verified.message);
        expect(verified.claims).toMatchObject({
          sub: started.machine_trial_id,
          machine_trial: true,
          kfp: '',
          hwid: hw,
          plan: { id: plan.id },
          features: [{ key: 'ai_chat', kind: 'metered', limit: 100 }],
          license_expires_at: started.trial.ends_at,
          trial: started.trial,
        });
        // The lease never outlives the trial.
        expect(verified.claims.exp * 1000).toBeLessThanOrEqual(Date.parse(started.trial.ends_at));

        // A reinstall asks again: the same trial, the same end, fewer days.
        s.clock.advance(5 * DAY_MS);
        const again = expectTrial(await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }), 200);
        expect(again).toMatchObject({
          machine_trial_id: started.machine_trial_id,
          started_at: started.started_at,
          trial: { ends_at: started.trial.ends_at, days_left: TRIAL_DAYS - 5 },
        });
        expect(again.message).toMatch(/^Free trial of .+: 9 days left$/);

        s.clock.advance((TRIAL_DAYS - 5) * DAY_MS);
        const used = expectRefused(
          await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }),
          'machine_trial_used',
        );
        expect(used.earlier_trial).toEqual({
          started_at: started.started_at,
          ends_at: started.trial.ends_at,
        });
        expect(used.message).toMatch(/^This machine already had a free trial of .+ \(from .+ to .+\)\. Buy/);
        expect(await machineTrialRows(s, hw)).toHaveLength(1);
        // Another plan's trial is another trial.
        const other = await trialPlan(s);
        expectTrial(await startMachineTrial(s, { hardware_id: hw, plan_id: other.id }), 201);
      });

      it('a trial started stays the machine’s when the plan stops offering trials; new machines are refused', async () => {
        const s = server();
        const plan = await trialPlan(s);
        const hw = machine('kept');
        const first = expectTrial(await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }), 201);
        await s.app.db
          .updateTable('plans')
          .set({ trial_days: 0, is_public: 0 })
          .where('id', '=', plan.id)
          .execute();
        const again = expectTrial(await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }), 200);
        expect(again.machine_trial_id).toBe(first.machine_trial_id);
        expectApiError(
          await startMachineTrial(s, { hardware_id: machine('new'), plan_id: plan.id }),
          404,
          'plan_not_found',
        );
      });

      it('without a plan: the lowest-priced plan on offer with a trial', async () => {
        const s = server();
        const dearer = await trialPlan(s, 2);
        const cheapest = await trialPlan(s, 1);
        await createPlan(s, { price: 0, interval: 'month' });
        const answer = expectTrial(await startMachineTrial(s, { hardware_id: machine('default') }), 201);
        expect(answer.plan.id).toBe(cheapest.id);
        expect(answer.plan.id).not.toBe(dearer.id);
      });

      it('refuses bad input, unknown plans and plans without a trial with clear 4xx answers, writing nothing', async () => {
        const s = server();
        const plan = await trialPlan(s);
        const hw = machine('bad');
        for (const body of [
          {},
          { hardware_id: 'short' },
          { hardware_id: 'has spaces in it' },
          { hardware_id: hw, plan_id: '' },
          { hardware_id: hw, extra: true },
          { hardware_id: 12345678 },
        ])
          expectApiError(await startMachineTrial(s, body), 400, 'validation_error');
        expectApiError(
          await startMachineTrial(s, { hardware_id: hw, plan_id: 'no-such-plan' }),
          404,
          'plan_not_found',
        );
        expectRefused(
          await startMachineTrial(s, { hardware_id: hw, plan_id: 'pro-yearly' }),
          'trial_not_offered',
        );
        expectRefused(await startMachineTrial(s, { hardware_id: hw, plan_id: 'base' }), 'trial_not_offered');
        const seats = await createPlan(s, { price: 100, interval: 'month', trialDays: 7 });
        await s.app.db.updateTable('plans').set({ seat_based: 1 }).where('id', '=', seats.id).execute();
        expectRefused(
          await startMachineTrial(s, { hardware_id: hw, plan_id: seats.id }),
          'trial_not_offered',
        );
        const withoutKey = await s.api({
          method: 'POST',
          path: '/machine-trials',
          body: { hardware_id: hw, plan_id: plan.id },
          withoutApiKey: true,
        });
        expect(withoutKey.statusCode).toBe(401);
        expect(await machineTrialRows(s, hw)).toEqual([]);
      });

      it('two starts at once for one machine make one trial, and both answer it', async () => {
        const s = server();
        const plan = await trialPlan(s);
        for (let round = 0; round < 3; round++) {
          const hw = machine('twice');
          const answers = await Promise.all([
            startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }),
            startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }),
          ]);
          expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 201]);
          const ids = answers.map((answer) => machineTrialSchema.parse(answer.json()).machine_trial_id);
          expect(new Set(ids).size).toBe(1);
          expect(await machineTrialRows(s, hw)).toHaveLength(1);
        }
      });

      it('two instances on one database, one machine’s two starts at once: one trial', async () => {
        const s = server();
        const plan = await trialPlan(s);
        const second = await buildApp(s.config, { clock: s.clock, logger: false });
        try {
          for (let round = 0; round < 3; round++) {
            const hw = machine('cluster');
            const answers = await Promise.all([
              startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }),
              second.inject({
                method: 'POST',
                url: '/api/v1/machine-trials',
                headers: { 'x-api-key': WEB_API_KEY },
                payload: { hardware_id: hw, plan_id: plan.id },
              }),
            ]);
            expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 201]);
            const ids = answers.map((answer) => machineTrialSchema.parse(answer.json()).machine_trial_id);
            expect(new Set(ids).size).toBe(1);
            expect(await machineTrialRows(s, hw)).toHaveLength(1);
          }
        } finally {
          await second.close();
        }
      });

      it('a machine that had an account trial gets no machine trial, and one whose machine trial ended gets no account trial', async () => {
        const s = server();
        const plan = await trialPlan(s);
        const ann = await member(s);
        const accountMachine = machine('account-first');
        const started = trialStartedSchema.parse(
          (await startAccountTrial(s, ann, { plan_id: plan.id, hardware_id: accountMachine })).json(),
        );
        const refused = expectRefused(
          await startMachineTrial(s, { hardware_id: accountMachine, plan_id: plan.id }),
          'machine_trial_used',
        );
        expect(refused.earlier_trial).toEqual({
          started_at: started.trial?.started_at,
          ends_at: started.trial?.ends_at,
        });
        expect(await machineTrialRows(s, accountMachine)).toEqual([]);

        s.clock.freeze();
        const machineFirst = machine('machine-first');
        const tried = expectTrial(
          await startMachineTrial(s, { hardware_id: machineFirst, plan_id: plan.id }),
          201,
        );
        s.clock.advance((TRIAL_DAYS + 1) * DAY_MS);
        const bea = await member(s);
        const late = expectRefused(
          await startAccountTrial(s, bea, { plan_id: plan.id, hardware_id: machineFirst }),
          'machine_trial_used',
        );
        expect(late.earlier_trial).toEqual({ started_at: tried.started_at, ends_at: tried.trial.ends_at });
        expect(
          await s.app.db.selectFrom('licenses').select('id').where('user_id', '=', bea.id).execute(),
        ).toEqual([]);
        // Without the machine, the account may still try the plan elsewhere.
        expect((await startAccountTrial(s, bea, { plan_id: plan.id })).statusCode).toBe(201);
      });

      it('a machine that tried the plan before any account gets no card trial of it either', async () => {
        const s = server();
        const plan = await trialPlan(s);
        const hw = machine('card-after-machine');
        const tried = expectTrial(await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }), 201);
        const ann = await member(s);
        const refused = expectRefused(
          await s.api({
            method: 'POST',
            path: '/subscriptions',
            token: ann.token,
            body: { plan_id: plan.id, trial: true, hardware_id: hw },
          }),
          'machine_trial_used',
        );
        expect(refused.earlier_trial).toEqual({ started_at: tried.started_at, ends_at: tried.trial.ends_at });
        expect(
          await s.app.db.selectFrom('subscriptions').select('id').where('user_id', '=', ann.id).execute(),
        ).toEqual([]);
      });

      it('the account trial started from the machine takes the machine trial over: its end, its source, the machine activated', async () => {
        const s = server();
        const plan = await trialPlan(s);
        const hw = machine('claim');
        s.clock.freeze();
        const tried = expectTrial(await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }), 201);
        s.clock.advance(4 * DAY_MS);
        const ann = await member(s);
        const response = await startAccountTrial(s, ann, {
          plan_id: plan.id,
          hardware_id: hw,
          device_name: 'Ann’s PC',
        });
        expect(response.statusCode, response.body).toBe(201);
        const claimed = trialStartedSchema.parse(response.json());
        expect(claimed).toMatchObject({
          status: 'active',
          expires_at: tried.trial.ends_at,
          trial: {
            source: 'machine',
            started_at: tried.started_at,
            ends_at: tried.trial.ends_at,
            days_left: TRIAL_DAYS - 4,
          },
          activation: { hardware_id: hw, device_name: 'Ann’s PC' },
        });
        expect(claimed.message).toMatch(
          /continues on your account: 10 days left, .+ This machine is activated\.$/,
        );
        const [row] = await machineTrialRows(s, hw);
        expect(row).toMatchObject({
          claimed_license_id: claimed.license_id,
          claimed_at: s.clock.now().toISOString(),
        });
        const trial = await s.app.db
          .selectFrom('license_trials')
          .selectAll()
          .where('license_id', '=', claimed.license_id)
          .executeTakeFirstOrThrow();
        expect(trial).toMatchObject({ source: 'machine', hardware_id: hw, ends_at: tried.trial.ends_at });

        // The machine's trial is the account's now: the app is told to sign in, nobody tries again.
        expectRefused(
          await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }),
          'machine_trial_claimed',
        );
        const bea = await member(s);
        expectRefused(
          await startAccountTrial(s, bea, { plan_id: plan.id, hardware_id: hw }),
          'machine_trial_used',
        );
      });

      it('an account trial and a machine trial of one machine at once: never both, unless the account took the machine’s over', async () => {
        const s = server();
        const plan = await trialPlan(s);
        const second = await buildApp(s.config, { clock: s.clock, logger: false });
        try {
          for (let round = 0; round < 4; round++) {
            const hw = machine('both');
            const ann = await member(s);
            const answers = await Promise.all([
              startAccountTrial(s, ann, { plan_id: plan.id, hardware_id: hw }),
              second.inject({
                method: 'POST',
                url: '/api/v1/machine-trials',
                headers: { 'x-api-key': WEB_API_KEY },
                payload: { hardware_id: hw, plan_id: plan.id },
              }),
            ]);
            for (const answer of answers) expect([200, 201, 409], answer.body).toContain(answer.statusCode);
            const accountTrials = await s.app.db
              .selectFrom('license_trials')
              .selectAll()
              .where('hardware_id', '=', hw)
              .execute();
            const machineTrials = await machineTrialRows(s, hw);
            expect(accountTrials.length + machineTrials.length).toBeGreaterThan(0);
            if (accountTrials.length > 0 && machineTrials.length > 0)
              expect(machineTrials[0]?.claimed_license_id).toBe(accountTrials[0]?.license_id);
          }
        } finally {
          await second.close();
        }
      });

      it('two accounts claiming one machine trial at once: one takes it', async () => {
        const s = server();
        const plan = await trialPlan(s);
        for (let round = 0; round < 2; round++) {
          const hw = machine('claims');
          expectTrial(await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }), 201);
          const [one, two] = [await member(s), await member(s)];
          const answers = await Promise.all([
            startAccountTrial(s, one, { plan_id: plan.id, hardware_id: hw }),
            startAccountTrial(s, two, { plan_id: plan.id, hardware_id: hw }),
          ]);
          expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
          const winner = trialStartedSchema.parse(answers.find((a) => a.statusCode === 201)?.json());
          const [row] = await machineTrialRows(s, hw);
          expect(row?.claimed_license_id).toBe(winner.license_id);
          expect(
            await s.app.db
              .selectFrom('licenses')
              .select('id')
              .where('user_id', 'in', [one.id, two.id])
              .execute(),
          ).toHaveLength(1);
        }
      });

      it('a paid license of another account activated on the machine is allowed and claims the trial; the machine never tries again', async () => {
        const s = server();
        const plan = await trialPlan(s);
        const hw = machine('paid');
        expectTrial(await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }), 201);

        // A free Base license claims nothing.
        const visitor = await member(s);
        expectActivation(await activateBase(s, visitor.token, hw), 201);
        expect((await machineTrialRows(s, hw))[0]?.claimed_license_id).toBeNull();

        const owner = await member(s);
        const paid = await giveLicense(s, owner, 'pro-yearly');
        expectActivation(await activate(s, owner.token, paid.license_key, hw), 201);
        const [row] = await machineTrialRows(s, hw);
        expect(row?.claimed_license_id).toBe(paid.id);
        expect(row?.claimed_at).not.toBeNull();

        expectRefused(
          await startMachineTrial(s, { hardware_id: hw, plan_id: plan.id }),
          'machine_trial_claimed',
        );
        const ann = await signInAgain(s, await member(s));
        expectRefused(
          await startAccountTrial(s, ann, { plan_id: plan.id, hardware_id: hw }),
          'machine_trial_used',
        );
        // Paid is paid: the license works on the machine, and a later machine activation changes nothing.
        const again = await activate(s, owner.token, paid.license_key, hw);
        expect(again.statusCode, again.body).toBe(200);
        expect((await machineTrialRows(s, hw))[0]?.claimed_license_id).toBe(paid.id);
      });
    },
    licenseSuiteOptions,
  );
});
