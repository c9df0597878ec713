import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract } from 'tar';
import { expect, it } from 'vitest';
import { createDataExports } from '../../../src/server/identity/account-data/exports.js';
import type { AccountDataParts } from '../../../src/server/identity/index.js';
import { type DataExport, dataExportSchema } from '../../../src/shared/api/account-data.js';
import { STEP_UP_WINDOW_SECONDS } from '../../../src/shared/constants.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signInAsAdmin, signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError, mailsTo, securityEvents } from '../helpers/auth-helpers.js';
import { invoicesOf } from '../helpers/invoice-helpers.js';
import { subscribe } from '../helpers/subscription-helpers.js';

const HOUR = 60 * 60 * 1000;

const askForExport = (s: TestServer, token: string) =>
  s.api({ method: 'POST', path: '/users/me/data-export', token });

async function latestExport(s: TestServer, token: string): Promise<DataExport | null> {
  const response = await s.api({ path: '/users/me/data-export', token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ export: DataExport | null }>().export;
}

/** The download link of the newest export mail to an address. */
async function exportLinkOf(s: TestServer, email: string): Promise<string> {
  const mails = (await mailsTo(s, email)).filter((mail) => mail.subject.includes('data export is ready'));
  expect(mails.length).toBeGreaterThan(0);
  const match = /https?:\/\/\S+\/api\/v1(\/data-exports\/[A-Za-z0-9_-]+)/.exec(mails.at(-1)!.text);
  expect(match, mails.at(-1)!.text).not.toBeNull();
  return match![1]!;
}

/** Unpacks a tar.gz and answers its files (relative paths) and a reader. */
async function unpack(bytes: Buffer) {
  const dir = await mkdtemp(join(tmpdir(), 'export-test-'));
  const file = join(dir, 'a.tar.gz');
  await import('node:fs/promises').then((fs) => fs.writeFile(file, bytes));
  const out = join(dir, 'out');
  await import('node:fs/promises').then((fs) => fs.mkdir(out));
  await extract({ file, cwd: out });
  const [top] = await readdir(out);
  const files = (await readdir(join(out, top!), { recursive: true })).map(String).sort();
  return {
    files,
    json: async (name: string): Promise<unknown> => JSON.parse(await readFile(join(out, top!, name), 'utf8')),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

describeOnEveryDatabase('the customer’s data export', (server) => {
  it('builds the archive of everything the account holds, mails a link that works for 24 hours, then 410', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s, 'exporter');
    const bought = await subscribe(s, user);
    const invoices = await invoicesOf(s, user.token);
    expect(invoices.data.length).toBeGreaterThan(0);

    expect(await latestExport(s, user.token)).toBeNull();
    const asked = await askForExport(s, user.token);
    expect(asked.statusCode, asked.body).toBe(202);
    const made = dataExportSchema.parse(asked.json());
    expect(made).toMatchObject({ status: 'queued', progress: 0, ready_at: null, expires_at: null });
    expect((await securityEvents(s, { type: 'data_export_requested', userId: user.id })).length).toBe(1);

    await s.app.scheduler.runOnce();
    const ready = await latestExport(s, user.token);
    expect(ready).toMatchObject({ id: made.id, status: 'ready', progress: 100 });
    expect(Date.parse(ready!.expires_at!) - s.clock.now().getTime()).toBe(24 * HOUR);

    const link = await exportLinkOf(s, user.email);
    // The link is the credential: no client key, no session.
    const download = await s.api({ path: link, withoutApiKey: true });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="data-export-.*\.tar\.gz"$/,
    );
    const archive = await unpack(download.rawPayload);
    try {
      const number = invoices.data[0]!.number;
      for (const name of [
        'account.json',
        'preferences.json',
        'security-events.json',
        'licenses.json',
        'machines.json',
        'organisations.json',
        'payments.json',
        'subscriptions.json',
        'invoices.json',
        `invoices/${number}.pdf`,
      ])
        expect(archive.files).toContain(name);
      expect(await archive.json('account.json')).toMatchObject({ id: user.id, email: user.email });
      const licenses = (await archive.json('licenses.json')) as { id: string }[];
      expect(licenses.map((license) => license.id)).toContain(bought.license.license_id);
      const subscriptions = (await archive.json('subscriptions.json')) as { id: string }[];
      expect(subscriptions.map((row) => row.id)).toContain(bought.subscription.id);
      const events = (await archive.json('security-events.json')) as { type: string }[];
      expect(events.map((event) => event.type)).toContain('data_export_requested');
      expect(JSON.stringify(await archive.json('account.json'))).not.toMatch(/password_hash|argon2/);
    } finally {
      await archive.cleanup();
    }

    // Still there a second before the day is over; gone after, with a clear answer.
    s.clock.advance(24 * HOUR - 1000);
    expect((await s.api({ path: link, withoutApiKey: true })).statusCode).toBe(200);
    s.clock.advance(1000);
    expectApiError(await s.api({ path: link, withoutApiKey: true }), 410, 'export_expired');
  });

  it('answers unknown and malformed links with 404 and 400, and refuses API tokens and stale sessions', async () => {
    const s = server();
    s.clock.freeze();
    expectApiError(
      await s.api({ path: '/data-exports/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', withoutApiKey: true }),
      404,
      'export_not_found',
    );
    expectApiError(
      await s.api({ path: '/data-exports/short', withoutApiKey: true }),
      400,
      'validation_error',
    );
    expectApiError(await s.api({ method: 'POST', path: '/users/me/data-export' }), 401, 'not_authenticated');
    const user = await signInAsUser(s);
    expectApiError(
      await s.api({ method: 'POST', path: '/users/me/data-export', token: user.token, body: { extra: 1 } }),
      400,
      'validation_error',
    );
    s.clock.advance(STEP_UP_WINDOW_SECONDS * 1000 + 1000);
    expectApiError(await askForExport(s, user.token), 403, 'step_up_required');
    expect(await latestExport(s, user.token)).toBeNull();
  });

  it('makes one export of two requests at once, and a new one once it is ready', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s);
    const answers = await Promise.all([askForExport(s, user.token), askForExport(s, user.token)]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(202);
    const ids = answers.map((answer) => answer.json<DataExport>().id);
    expect(ids[0]).toBe(ids[1]);
    const rows = await s.app.db
      .selectFrom('data_exports')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect((await securityEvents(s, { type: 'data_export_requested', userId: user.id })).length).toBe(1);

    await s.app.scheduler.runOnce();
    const again = await askForExport(s, user.token);
    expect(again.statusCode).toBe(202);
    expect(again.json<DataExport>().id).not.toBe(ids[0]);
  });

  it('completes a build a stopped server left half done, once its claim has run out', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s);
    const made = (await askForExport(s, user.token)).json<DataExport>();
    // What a server stopped in the middle of the build leaves: the row claimed, a third done.
    const claimedUntil = new Date(s.clock.now().getTime() + 10 * 60 * 1000).toISOString();
    await s.app.db
      .updateTable('data_exports')
      .set({ status: 'building', progress: 33, claimed_until: claimedUntil, attempts: 1 })
      .where('id', '=', made.id)
      .execute();
    expect(await latestExport(s, user.token)).toMatchObject({ status: 'building', progress: 33 });

    // While the claim lasts, the build may still be going on elsewhere: left alone.
    await s.app.scheduler.runOnce();
    expect(await latestExport(s, user.token)).toMatchObject({ status: 'building', progress: 33 });
    s.clock.advance(10 * 60 * 1000 + 1000);
    await s.app.scheduler.runOnce();
    expect(await latestExport(s, user.token)).toMatchObject({ id: made.id, status: 'ready', progress: 100 });
    const link = await exportLinkOf(s, user.email);
    expect((await s.api({ path: link, withoutApiKey: true })).statusCode).toBe(200);
  });

  it('hands a build back when its server stops in the middle of it, and the next server completes it', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s);
    const made = (await askForExport(s, user.token)).json<DataExport>();
    // A server whose second part is slow: it is stopped while that part is being read.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((done) => (release = done));
    let reached: () => void = () => undefined;
    const inSlowPart = new Promise<void>((done) => (reached = done));
    const slow: AccountDataParts = {
      sections: [
        {
          name: 'slow',
          collect: async () => {
            reached();
            await gate;
            return [];
          },
        },
      ],
      deletionBlockers: [],
    };
    const services = {
      db: s.app.db,
      clock: s.clock,
      mailer: s.app.mailer,
      publicUrl: 'http://portal.test',
      log: s.app.log,
    };
    const stopping = createDataExports({ ...services, parts: slow });
    const building = stopping.buildDue();
    await inSlowPart;
    expect(await latestExport(s, user.token)).toMatchObject({ status: 'building', progress: 45 });
    stopping.stop();
    release();
    expect(await building).toBe(0);
    const handedBack = await s.app.db
      .selectFrom('data_exports')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    // Handed back at once: no claim to wait out, the attempt not counted, no mail.
    expect(handedBack).toMatchObject({ status: 'queued', claimed_until: null, attempts: 0, archive: null });
    expect((await mailsTo(s, user.email)).filter((mail) => mail.subject.includes('data export'))).toEqual([]);

    // The next server (the app's own, here) builds it from the start.
    await s.app.scheduler.runOnce();
    expect(await latestExport(s, user.token)).toMatchObject({ id: made.id, status: 'ready', progress: 100 });
    await exportLinkOf(s, user.email);
  });

  it('lets an administrator ask for a user’s export (after step-up), mailed to the user', async () => {
    const s = server();
    s.clock.freeze();
    const admin = await signInAsAdmin(s);
    const user = await signInAsUser(s);
    expectApiError(
      await s.api({ method: 'POST', path: `/admin/users/${user.id}/data-export`, token: user.token }),
      403,
      'admin_required',
    );
    expectApiError(
      await s.api({ method: 'POST', path: '/admin/users/no-such-user/data-export', token: admin.token }),
      404,
      'user_not_found',
    );
    const asked = await s.api({
      method: 'POST',
      path: `/admin/users/${user.id}/data-export`,
      token: admin.token,
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const [event] = await securityEvents(s, { type: 'data_export_requested', userId: user.id });
    expect(event).toMatchObject({ actor_id: admin.id });
    await s.app.scheduler.runOnce();
    expect(await latestExport(s, user.token)).toMatchObject({ status: 'ready' });
    await exportLinkOf(s, user.email);
    s.clock.advance(STEP_UP_WINDOW_SECONDS * 1000 + 1000);
    expectApiError(
      await s.api({ method: 'POST', path: `/admin/users/${user.id}/data-export`, token: admin.token }),
      403,
      'step_up_required',
    );
  });
});
