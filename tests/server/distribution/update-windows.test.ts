import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishRelease } from '../../../src/server/distribution/releases.js';
import type { PlanRow, ReleaseRow } from '../../../src/server/platform/db/tables.js';
import { utc } from '../../../src/shared/dates.js';
import { updateCheckResponseSchema } from '../../../src/shared/api/distribution.js';
import {
  downloadResponseSchema,
  licenseSchema,
  licenseStatusSchema,
} from '../../../src/shared/api/licenses.js';
import { planSchema } from '../../../src/shared/api/plans.js';
import { adminLicenseSchema, dashboardStatsSchema } from '../../../src/shared/api/admin.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { invoiceOfPayment } from '../helpers/invoice-helpers.js';
import {
  activate,
  createPlan,
  DAY_MS,
  expectActivation,
  licenseRow,
  licenseSuiteOptions,
  machine,
  type Member,
  member,
  signInAgain,
} from '../helpers/license-helpers.js';
import {
  createOrder,
  expectVerified,
  openOrder,
  payInSandbox,
  verifyPayment,
} from '../helpers/payment-helpers.js';
import { chargesOf, subscribe, subscriptionCall, subscriptionRow } from '../helpers/subscription-helpers.js';
import { nodeUpdater } from './update-feed-helpers.js';

const PUBLIC_ORIGIN = 'http://portal.test';
const COVERED_MESSAGE = 'Your license covers versions up to 2.3. Renew updates to get 2.4 and later.';

/** Months from a moment, as the server counts an update window. */
const monthsFrom = (from: string | Date, months: number) => utc(from).add(months, 'month').toISOString();

describeOnEveryDatabase(
  'perpetual licenses with an update window',
  (server) => {
    let workDir: string;
    let origin: string;
    const saved = { APPIMAGE: process.env.APPIMAGE, TEST_UPDATER_ARCH: process.env.TEST_UPDATER_ARCH };

    beforeAll(async () => {
      workDir = await mkdtemp(join(tmpdir(), 'portal-update-windows-'));
      // The Linux updater reads the running AppImage's path, and its arch picks the channel file.
      process.env.APPIMAGE = join(workDir, 'running.AppImage');
      process.env.TEST_UPDATER_ARCH = 'x64';
      origin = await server().listen();
    });
    afterAll(async () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await rm(workDir, { recursive: true, force: true });
    });

    /** A perpetual plan with a year of updates and its renewal, a year more each. */
    async function perpetualPlans(s: TestServer): Promise<{ perpetual: PlanRow; renewal: PlanRow }> {
      const perpetual = await createPlan(s, { price: 4_999_00, interval: 'lifetime', updateMonths: 12 });
      const renewal = await createPlan(s, {
        price: 999_00,
        interval: 'lifetime',
        updateMonths: 12,
        renewsUpdatesOf: perpetual.id,
      });
      return { perpetual, renewal };
    }

    async function buy(s: TestServer, buyer: Member, plan: PlanRow) {
      const order = await openOrder(s, buyer.token, plan.id);
      const paid = await payInSandbox(s, buyer.token, order.order_id);
      return expectVerified(await verifyPayment(s, buyer.token, paid));
    }

    async function publish(s: TestServer, version: string, publishedAt: Date): Promise<ReleaseRow> {
      const directory = join(workDir, 'artifacts', `${version}-${randomBytes(3).toString('hex')}`);
      await mkdir(directory, { recursive: true });
      const file = join(directory, `assistant-${version}.AppImage`);
      await writeFile(file, randomBytes(20_000));
      return publishRelease(s.app.db, s.config.licensing.releasesDir, {
        platform: 'linux',
        version,
        file,
        channel: 'stable',
        rolloutPercent: 100,
        releaseNotes: '',
        now: publishedAt,
      });
    }

    const check = (s: TestServer, key: string, hardwareId: string, appVersion?: string) =>
      s.api({
        method: 'POST',
        path: '/licenses/validate',
        body: {
          license_key: key,
          hardware_id: hardwareId,
          ...(appVersion === undefined ? {} : { app_version: appVersion }),
        },
      });

    async function updateCheck(s: TestServer, key: string, hardwareId: string, currentVersion: string) {
      const response = await s.api({
        method: 'POST',
        path: '/updates/check',
        body: {
          license_key: key,
          hardware_id: hardwareId,
          platform: 'linux',
          current_version: currentVersion,
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      const answer = updateCheckResponseSchema.parse(response.json());
      return { ...answer, feed_url: answer.feed_url.replace(PUBLIC_ORIGIN, origin) };
    }

    /** What electron-updater, running `version`, makes of the machine's feed. */
    async function updaterSees(feedUrl: string, version: string) {
      const dir = join(workDir, 'updaters', randomBytes(4).toString('hex'));
      const updater = await nodeUpdater({ dir, version, feedUrl });
      const result = await updater.checkForUpdates();
      return { available: result?.isUpdateAvailable ?? false, version: result?.updateInfo.version };
    }

    it('a window that ends: the feed stops at 2.3, the check says so, and renewing brings 2.4 back', async () => {
      const s = server();
      let buyer = await member(s);
      const { perpetual, renewal } = await perpetualPlans(s);

      const bought = await buy(s, buyer, perpetual);
      const boughtAt = bought.payment.paid_at as string;
      expect(bought.license).toMatchObject({
        plan_id: perpetual.id,
        expires_at: null,
        update_window_ended: false,
      });
      expect(bought.license.updates_until).toBe(monthsFrom(bought.license.created_at, 12));
      const invoice = await invoiceOfPayment(s, buyer.token, bought.payment.id);
      expect(invoice.lines[0]?.description).toContain('perpetual license with 12 months of updates');

      const hw = machine('perpetual');
      expectActivation(await activate(s, buyer.token, bought.license.license_key, hw), 201);
      const key = bought.license.license_key;
      await publish(s, '2.3.0', new Date(Date.parse(boughtAt) + DAY_MS));

      // Inside the window: valid, the window named, nothing ended.
      const open = licenseStatusSchema.parse((await check(s, key, hw, '2.3.0')).json());
      expect(open).toMatchObject({
        valid: true,
        message: 'License is valid',
        updates_until: bought.license.updates_until,
        update_window_ended: false,
      });
      expect(open.covered_version).toBeUndefined();

      // Thirteen months on the window has ended, and 2.4 is published after it.
      s.clock.advance(396 * DAY_MS);
      const later = await publish(s, '2.4.0', s.clock.now());

      const feed = await updateCheck(s, key, hw, '2.3.0');
      expect(feed).toMatchObject({ update_window_ended: true, covered_version: '2.3.0' });
      expect(await updaterSees(feed.feed_url, '2.3.0')).toEqual({ available: false, version: '2.3.0' });
      // The newer file itself is refused through the feed, even by a machine that knows its path.
      const filePath = `${new URL(feed.feed_url).pathname.slice('/api/v1'.length)}files/${later.id}/${later.file_name}`;
      expectApiError(await s.api({ path: filePath, withoutApiKey: true }), 403, 'update_window_ended');

      // The app that got 2.4 anyway is still licensed, and told what its license covers.
      const ended = await check(s, key, hw, '2.4.0');
      expect(ended.statusCode, ended.body).toBe(200);
      // The window's fields close the answer, each once (the answer is written around its features).
      expect(JSON.stringify(ended.json())).toBe(ended.body);
      expect(licenseStatusSchema.parse(ended.json())).toMatchObject({
        valid: true,
        status: 'active',
        update_window_ended: true,
        covered_version: '2.3.0',
        message: COVERED_MESSAGE,
      });
      // An app on a covered version is valid too, and the check still says what it covers.
      expect(licenseStatusSchema.parse((await check(s, key, hw, '2.3.0')).json())).toMatchObject({
        valid: true,
        update_window_ended: true,
        covered_version: '2.3.0',
        message: `License is valid. ${COVERED_MESSAGE}`,
      });

      // Downloads by hand stop at the window too.
      buyer = await signInAgain(s, buyer);
      const downloads = await s.api({
        path: `/licenses/${bought.license.license_id}/download?platform=linux`,
        token: buyer.token,
      });
      expect(downloads.statusCode, downloads.body).toBe(200);
      expect(downloadResponseSchema.parse(downloads.json()).releases.map((r) => r.version)).toEqual([
        '2.3.0',
      ]);

      // The owner's license, listed and in detail, says what it covers and what renewing brings.
      const ownView = async (path: string) => {
        const response = await s.api({ path, token: buyer.token });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<unknown>();
      };
      const listed = licenseSchema
        .array()
        .parse(await ownView('/licenses'))
        .find((license) => license.license_id === bought.license.license_id);
      const detail = licenseSchema.parse(await ownView(`/licenses/${bought.license.license_id}`));
      for (const view of [listed, detail])
        expect(view).toMatchObject({
          update_window_ended: true,
          covered_version: '2.3.0',
          next_version: '2.4.0',
        });

      // Renewing a lapsed window runs a year from today; the invoice names what was bought.
      const renewed = await buy(s, buyer, renewal);
      const renewedAt = s.clock.now();
      expect(renewed.license.license_id).toBe(bought.license.license_id);
      expect(renewed.license.update_window_ended).toBe(false);
      expect(
        licenseSchema.parse(await ownView(`/licenses/${bought.license.license_id}`)).covered_version,
      ).toBeUndefined();
      const until = renewed.license.updates_until as string;
      expect(Date.parse(until)).toBeGreaterThan(Date.parse(monthsFrom(renewedAt, 12)) - 60_000);
      expect(Date.parse(until)).toBeLessThanOrEqual(Date.parse(monthsFrom(renewedAt, 12)));
      const renewalInvoice = await invoiceOfPayment(s, buyer.token, renewed.payment.id);
      expect(renewalInvoice.lines[0]?.description).toBe(
        `${renewal.name} plan, update renewal, 12 months of updates`,
      );
      expect(renewalInvoice.service_period?.end).toBe(until);

      const renewedFeed = await updateCheck(s, key, hw, '2.3.0');
      expect(renewedFeed).toMatchObject({ update_window_ended: false, updates_until: until });
      expect(renewedFeed.covered_version).toBeUndefined();
      expect(await updaterSees(renewedFeed.feed_url, '2.3.0')).toEqual({ available: true, version: '2.4.0' });
      expect(licenseStatusSchema.parse((await check(s, key, hw, '2.4.0')).json())).toMatchObject({
        valid: true,
        message: 'License is valid',
        update_window_ended: false,
      });
    });

    it('renewing an open window extends it from its end; two renewals paid at once both count', async () => {
      const s = server();
      const buyer = await member(s);
      const { perpetual, renewal } = await perpetualPlans(s);
      const bought = await buy(s, buyer, perpetual);
      const first = bought.license.updates_until as string;

      const renewed = await buy(s, buyer, renewal);
      expect(renewed.license.updates_until).toBe(monthsFrom(first, 12));

      // Two renewals verified at the same moment: neither is lost.
      const orders = await Promise.all([
        openOrder(s, buyer.token, renewal.id),
        openOrder(s, buyer.token, renewal.id),
      ]);
      const paid = await Promise.all(orders.map((order) => payInSandbox(s, buyer.token, order.order_id)));
      const verified = await Promise.all(paid.map((body) => verifyPayment(s, buyer.token, body)));
      for (const response of verified) expectVerified(response);
      expect((await licenseRow(s, bought.license.license_id)).updates_until).toBe(monthsFrom(first, 36));
    });

    it('a yearly subscription of the update plan moves the window on a year at each charge; cancelling it keeps the license', async () => {
      const s = server();
      let buyer = await member(s);
      const { perpetual } = await perpetualPlans(s);
      const yearly = await createPlan(s, {
        price: 899_00,
        interval: 'year',
        updateMonths: 12,
        renewsUpdatesOf: perpetual.id,
      });
      const bought = await buy(s, buyer, perpetual);
      const first = bought.license.updates_until as string;

      const subscribed = await subscribe(s, buyer, yearly.code);
      const id = bought.license.license_id;
      expect((await licenseRow(s, id)).updates_until).toBe(monthsFrom(first, 12));
      // The lease the license check signs carries the window, for the app to know offline.
      const hw = machine('yearly-updates');
      expectActivation(await activate(s, buyer.token, bought.license.license_key, hw), 201);
      const lease = licenseStatusSchema.parse((await check(s, bought.license.license_key, hw)).json()).lease;
      const claims = JSON.parse(Buffer.from(String(lease).split('.')[1] ?? '', 'base64url').toString());
      expect(claims.updates_until).toBe(monthsFrom(first, 12));

      // A year on, the scheduler charges the renewal: a year more from the window's end.
      s.clock.advance(366 * DAY_MS);
      expect(await s.app.scheduler.runOnce()).toBe(true);
      const charges = await chargesOf(s, subscribed.subscription.id);
      expect(charges).toHaveLength(2);
      expect((await licenseRow(s, id)).updates_until).toBe(monthsFrom(first, 24));
      // Its invoice names what the charge bought.
      buyer = await signInAgain(s, buyer);
      const renewalInvoice = await invoiceOfPayment(s, buyer.token, charges[1]?.id ?? '');
      expect(renewalInvoice.lines[0]?.description).toBe(
        `${yearly.name} plan, update renewal, 12 months of updates`,
      );

      // The updates a charge bought stay bought: nothing to refund, so it stops at its period's end.
      const subscriptionId = subscribed.subscription.id;
      const cancelPath = `/subscriptions/${subscriptionId}/cancel`;
      expectApiError(
        await s.api({ method: 'POST', path: cancelPath, token: buyer.token, body: { at: 'now' } }),
        409,
        'cancel_at_period_end_only',
      );
      const cancelled = await subscriptionCall(s, buyer, 'POST', cancelPath, {});
      expect(cancelled.cancel_at_period_end).toBe(true);
      s.clock.advance(366 * DAY_MS);
      await s.app.scheduler.runOnce();
      expect((await subscriptionRow(s, subscriptionId)).status).toBe('cancelled');
      expect(await chargesOf(s, subscriptionId)).toHaveLength(2);

      // Its end ends no license: the perpetual one keeps its key, its machine and its window.
      expect(await licenseRow(s, id)).toMatchObject({
        status: 'active',
        expires_at: null,
        updates_until: monthsFrom(first, 24),
      });
      expect(
        licenseStatusSchema.parse((await check(s, bought.license.license_key, hw)).json()),
      ).toMatchObject({
        valid: true,
        update_window_ended: false,
      });
    });

    it('a renewal without a perpetual license to renew is refused before any money moves', async () => {
      const s = server();
      const buyer = await member(s);
      const { renewal } = await perpetualPlans(s);
      const refused = expectApiError(
        await createOrder(s, buyer.token, { plan_id: renewal.id }),
        409,
        'no_perpetual_license',
      );
      expect(refused.message).toContain('buy the perpetual plan first');
      // Nor is a subscription to renewals opened.
      const yearly = await createPlan(s, {
        price: 899_00,
        interval: 'year',
        updateMonths: 12,
        renewsUpdatesOf: renewal.renews_updates_of ?? '',
      });
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/subscriptions',
          token: buyer.token,
          body: { plan_id: yearly.id },
        }),
        409,
        'no_perpetual_license',
      );
      expect(
        await s.app.db.selectFrom('subscriptions').select('id').where('user_id', '=', buyer.id).execute(),
      ).toEqual([]);
      const payments = await s.app.db
        .selectFrom('payments')
        .select('id')
        .where('user_id', '=', buyer.id)
        .execute();
      expect(payments).toEqual([]);
    });

    it('bad app versions: not a version → 400; a version never released is judged by its number', async () => {
      const s = server();
      const buyer = await member(s);
      const { perpetual } = await perpetualPlans(s);
      const bought = await buy(s, buyer, perpetual);
      const hw = machine('versions');
      expectActivation(await activate(s, buyer.token, bought.license.license_key, hw), 201);
      const key = bought.license.license_key;

      for (const version of ['abc', '2.4', '2.4.0; drop table', 'x'.repeat(41)])
        expectApiError(await check(s, key, hw, version), 400, 'validation_error');
      const query = new URLSearchParams({ license_key: key, hardware_id: hw, app_version: 'v2' });
      expectApiError(await s.api({ path: `/licensing/status?${query}` }), 400, 'validation_error');

      // Ended with nothing released inside it: 9.9.9 (never released) is outside, told so plainly.
      await s.app.db
        .updateTable('licenses')
        .set({ updates_until: '2000-01-01T00:00:00.000Z', updated_at: s.clock.now().toISOString() })
        .where('id', '=', bought.license.license_id)
        .execute();
      const never = await check(s, key, hw, '9.9.9');
      expect(never.statusCode, never.body).toBe(200);
      const answer = licenseStatusSchema.parse(never.json());
      expect(answer).toMatchObject({ valid: true, update_window_ended: true, covered_version: null });
      expect(answer.message).toMatch(
        /^Your license's update window ended before any version was released\. Renew updates to get /,
      );
    });

    it('plans: a perpetual plan and its renewal through the admin API, and what does not fit is refused', async () => {
      const s = server();
      const admin = await member(s, 'admin');
      const create = (body: Record<string, unknown>) =>
        s.api({ method: 'POST', path: '/plans', token: admin.token, body });
      const base = {
        name: 'Perpetual',
        price_minor: 4_999_00,
        currency: 'INR',
        billing_interval: 'lifetime',
        max_activations: 2,
      };
      const code = () => `perpetual-${randomBytes(3).toString('hex')}`;

      const created = await create({ ...base, code: code(), update_months: 12 });
      expect(created.statusCode, created.body).toBe(201);
      const perpetual = planSchema.parse(created.json());
      expect(perpetual).toMatchObject({ update_months: 12, renews_updates_of: null });

      const renewal = await create({
        ...base,
        code: code(),
        name: 'Perpetual updates',
        update_months: 12,
        renews_updates_of: perpetual.id,
      });
      expect(renewal.statusCode, renewal.body).toBe(201);
      const renewalPlan = planSchema.parse(renewal.json());
      expect(renewalPlan).toMatchObject({ renews_updates_of: perpetual.id });

      const bad: [Record<string, unknown>, number, string][] = [
        [{ update_months: 12, billing_interval: 'year' }, 400, 'validation_error'],
        [{ update_months: 0 }, 400, 'validation_error'],
        [{ update_months: 121 }, 400, 'validation_error'],
        [{ update_months: 1.5 }, 400, 'validation_error'],
        [{ update_months: '12' }, 400, 'validation_error'],
        [{ renews_updates_of: perpetual.id }, 400, 'validation_error'],
        [{ update_months: 12, renews_updates_of: 'no-such-plan' }, 400, 'not_a_perpetual_plan'],
        // A renewal renews a perpetual plan, not another renewal.
        [{ update_months: 12, renews_updates_of: renewalPlan.id }, 400, 'not_a_perpetual_plan'],
      ];
      for (const [fields, status, errorCode] of bad)
        expectApiError(await create({ ...base, code: code(), ...fields }), status, errorCode);

      const patch = (id: string, body: Record<string, unknown>) =>
        s.api({ method: 'PUT', path: `/plans/${id}`, token: admin.token, body });
      expectApiError(
        await patch(perpetual.id, { billing_interval: 'month', price_minor: 100 }),
        400,
        'validation_error',
      );
      expectApiError(
        await patch(renewalPlan.id, { renews_updates_of: renewalPlan.id }),
        400,
        'not_a_perpetual_plan',
      );
      const changed = await patch(perpetual.id, { update_months: 24 });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(planSchema.parse(changed.json()).update_months).toBe(24);
    });

    it('administrators see and change a window, and the dashboard counts open and lapsed ones', async () => {
      const s = server();
      const admin = await member(s, 'admin');
      const buyer = await member(s);
      const { perpetual } = await perpetualPlans(s);
      const bought = await buy(s, buyer, perpetual);
      const id = bought.license.license_id;
      const put = (licenseId: string, body: unknown) =>
        s.api({ method: 'PUT', path: `/admin/licenses/${licenseId}`, token: admin.token, body });
      const dashboard = async () => {
        const response = await s.api({ path: '/admin/dashboard', token: admin.token });
        expect(response.statusCode, response.body).toBe(200);
        return dashboardStatsSchema.parse(response.json()).licenses.perpetual;
      };

      const before = await dashboard();
      const ended = await put(id, { updates_until: '2020-01-01T00:00:00+05:30' });
      expect(ended.statusCode, ended.body).toBe(200);
      expect(adminLicenseSchema.parse(ended.json())).toMatchObject({
        updates_until: '2019-12-31T18:30:00.000Z',
        update_window_ended: true,
        expires_at: null,
      });
      expect(await dashboard()).toEqual({
        update_window_open: before.update_window_open - 1,
        update_window_lapsed: before.update_window_lapsed + 1,
      });
      const reopened = await put(id, { updates_until: monthsFrom(s.clock.now(), 6) });
      expect(adminLicenseSchema.parse(reopened.json()).update_window_ended).toBe(false);
      expect(await dashboard()).toEqual(before);

      for (const value of ['tomorrow', null, 12, '2026-13-01T00:00:00Z'])
        expectApiError(await put(id, { updates_until: value }), 400, 'validation_error');
      const monthly = await buy(s, buyer, await createPlan(s, { price: 100_00, interval: 'month' }));
      expectApiError(
        await put(monthly.license.license_id, { updates_until: monthsFrom(s.clock.now(), 1) }),
        409,
        'license_without_update_window',
      );
      expect((await licenseRow(s, monthly.license.license_id)).updates_until).toBeNull();
    });
  },
  licenseSuiteOptions,
);
