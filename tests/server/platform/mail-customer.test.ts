import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { composeMail } from '../../../src/server/platform/mail/compose.js';
import { SIGN_IN_MEMORY_DAYS } from '../../../src/server/identity/auth/new-sign-in-alert.js';
import { API_BASE_PATH } from '../../../src/shared/routes.js';
import { parseMail, type ParsedMail } from '../../support/outbox.js';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';
import { signInAsAdmin } from '../helpers/admin-helpers.js';
import { DAY_MS, giveLicense } from '../helpers/license-helpers.js';

// The customer's mail through the real server: the .eml bytes the file transport writes, parsed
// with a MIME parser, for the HTML part, the new-device alert, the revocation mail, one-click
// unsubscribe over a socket, and files attached to queued mail.

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Every mail written to the outbox for an address, parsed from its bytes, oldest first. */
async function mailsTo(s: TestServer, email: string): Promise<(ParsedMail & { file: string })[]> {
  await s.app.mailOutbox.drain();
  const dir = s.config.mail.outboxDir;
  const files = (await readdir(dir).catch(() => [] as string[]))
    .filter((file) => file.endsWith('.eml'))
    .sort();
  const mails = await Promise.all(
    files.map(async (file) => ({ file, ...(await parseMail(await readFile(join(dir, file), 'utf8'))) })),
  );
  return mails.filter((mail) => mail.to.includes(email));
}

const kindOf = async (s: TestServer, email: string, kind: string) =>
  s.app.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('recipient', '=', email)
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();

/** An account made directly (no sign-in yet), as a customer who just confirmed their address. */
async function account(s: TestServer, label: string) {
  const email = uniqueEmail(label);
  const user = await s.app.authService.createAccount({
    email,
    password: STRONG_PASSWORD,
    role: 'user',
    verified: true,
    fullName: 'Ada Lovelace',
  });
  return { id: user.id, email };
}

/** Signs in over the JSON route from a given browser and address; returns the access token. */
async function signInFrom(s: TestServer, email: string, userAgent: string, ip = '203.0.113.10') {
  const response = await s.api({
    method: 'POST',
    path: '/auth/login/json',
    body: { email, password: STRONG_PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress: ip,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ access_token: string }>().access_token;
}

describeOnEveryDatabase('the customer mail', (server) => {
  it('sends every mail as multipart/alternative: the text part and the HTML part, the link in both', async () => {
    const s = server();
    const email = uniqueEmail('html');
    await s.api({ method: 'POST', path: '/auth/register', body: { email, password: STRONG_PASSWORD } });
    const [mail] = await mailsTo(s, email);
    expect(mail).toBeDefined();
    expect(mail!.raw).toMatch(/^Content-Type: multipart\/alternative;\s+boundary=/m);
    expect(mail!.raw).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
    expect(mail!.raw).toMatch(/^Content-Type: text\/html; charset=utf-8$/m);
    const link = /http:\/\/portal\.test\/verify-registration\?token=[A-Za-z0-9_-]+/.exec(mail!.text)?.[0];
    expect(link, 'the link in the text part').toBeDefined();
    expect(mail!.html).toContain(`href="${link}"`);
    expect(mail!.html).toContain('Desktop AI Assistant');
    // Transactional: no unsubscribe header.
    expect(mail!.headers.has('list-unsubscribe')).toBe(false);
  });

  it('alerts once for a sign-in from a new device, never for the first sign-in or a known device', async () => {
    const s = server();
    const user = await account(s, 'new-device');
    await signInFrom(s, user.email, CHROME_LINUX);
    await signInFrom(s, user.email, CHROME_LINUX);
    // Another version of the same browser on the same network is the same device.
    await signInFrom(s, user.email, CHROME_LINUX.replace('131.0.0.0', '132.0.1.2'), '203.0.113.77');
    expect(await kindOf(s, user.email, 'new_sign_in'), 'first and known sign-ins').toEqual([]);

    await signInFrom(s, user.email, FIREFOX_WINDOWS);
    await signInFrom(s, user.email, FIREFOX_WINDOWS);
    const alerts = (await mailsTo(s, user.email)).filter((mail) => mail.subject.startsWith('New sign-in'));
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    expect(alert!.text).toContain('Hello Ada Lovelace,');
    expect(alert!.text).toContain('Device: Firefox on Windows');
    expect(alert!.text).toContain('Address: 203.0.113.10');
    expect(alert!.html).toContain('Firefox on Windows');
    expect(alert!.html).toContain('href="http://portal.test/forgot-password"');
    // Optional mail: one-click unsubscribe (RFC 8058) in the headers and a link in both parts.
    const unsubscribe = alert!.headers.get('list-unsubscribe');
    expect(unsubscribe).toMatch(
      /^<http:\/\/portal\.test\/api\/v1\/notifications\/unsubscribe\?token=[^>]+>$/,
    );
    expect(alert!.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const url = unsubscribe!.slice(1, -1);
    expect(alert!.text).toContain(url);
    expect(alert!.html).toContain(url);

    // A new network is new too, even from a known browser.
    await signInFrom(s, user.email, CHROME_LINUX, '198.51.100.20');
    expect(await kindOf(s, user.email, 'new_sign_in')).toHaveLength(2);
  });

  it('writes the alert in the language the account chose (issue 34): German, with German dates', async () => {
    const s = server();
    const user = await account(s, 'german-alert');
    const token = await signInFrom(s, user.email, CHROME_LINUX);
    const german = await s.api({
      method: 'PUT',
      path: '/users/me/preferences',
      token,
      body: { language: 'de' },
    });
    expect(german.statusCode, german.body).toBe(200);
    await signInFrom(s, user.email, FIREFOX_WINDOWS, '198.51.100.40');
    const [alert] = (await mailsTo(s, user.email)).filter((mail) =>
      mail.subject.startsWith('Neue Anmeldung'),
    );
    expect(alert, 'a German alert').toBeDefined();
    expect(alert!.text).toContain('Hallo Ada Lovelace,');
    expect(alert!.text).toContain('Gerät: Firefox unter Windows');
    expect(alert!.text).toContain('Um diese E-Mails abzubestellen: http://portal.test/');
    expect(alert!.html).toContain('lang="de"');
  });

  it(`counts a device unseen for ${SIGN_IN_MEMORY_DAYS} days as new again`, async () => {
    const s = server();
    const user = await account(s, 'forgotten-device');
    await signInFrom(s, user.email, CHROME_LINUX);
    await signInFrom(s, user.email, SAFARI_IPHONE, '192.0.2.50');
    expect(await kindOf(s, user.email, 'new_sign_in')).toHaveLength(1);
    s.clock.advance((SIGN_IN_MEMORY_DAYS - 1) * DAY_MS);
    await signInFrom(s, user.email, CHROME_LINUX);
    expect(await kindOf(s, user.email, 'new_sign_in')).toHaveLength(1);
    s.clock.advance(2 * DAY_MS);
    // Chrome was used a day ago; the iPhone and its network 91 days ago.
    await signInFrom(s, user.email, SAFARI_IPHONE, '192.0.2.50');
    expect(await kindOf(s, user.email, 'new_sign_in')).toHaveLength(2);
  });

  it('sends no alert when the security-alert preference is off, and escapes a hostile user agent', async () => {
    const s = server();
    const user = await account(s, 'alerts-off');
    const token = await signInFrom(s, user.email, CHROME_LINUX);
    const off = await s.api({
      method: 'PUT',
      path: '/users/me/preferences',
      token,
      body: { notifications: { security_alerts: false } },
    });
    expect(off.statusCode, off.body).toBe(200);
    await signInFrom(s, user.email, FIREFOX_WINDOWS, '198.51.100.30');
    expect(await kindOf(s, user.email, 'new_sign_in')).toEqual([]);

    await s.api({
      method: 'PUT',
      path: '/users/me/preferences',
      token,
      body: { notifications: { security_alerts: true } },
    });
    const hostile = `<script>alert(1)</script> Opera/9.80 (<b>Linux</b>)`;
    await signInFrom(s, user.email, hostile, '192.0.2.99');
    const [alert] = (await mailsTo(s, user.email)).filter((mail) => mail.subject.startsWith('New sign-in'));
    expect(alert).toBeDefined();
    expect(alert!.html).not.toContain('<script>alert(1)');
    expect(alert!.html).not.toContain('<b>Linux</b>');
  });

  it('sends one alert when the same new device signs in twice at once', async () => {
    const s = server();
    const user = await account(s, 'racing-device');
    await signInFrom(s, user.email, CHROME_LINUX);
    await Promise.all([
      signInFrom(s, user.email, FIREFOX_WINDOWS, '192.0.2.60'),
      signInFrom(s, user.email, FIREFOX_WINDOWS, '192.0.2.61'),
    ]);
    expect(await kindOf(s, user.email, 'new_sign_in')).toHaveLength(1);
  });

  it("tells the owner of a revoked license, with the administrator's reason, in the revocation's transaction", async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const owner = await account(s, 'revoked');
    const license = await giveLicense(s, owner, 'pro-monthly');
    const reason = 'Chargeback <b>filed</b> & "disputed"';
    const revoke = (why: string) =>
      s.api({
        method: 'POST',
        path: `/admin/licenses/${license.id}/revoke?reason=${encodeURIComponent(why)}`,
        token: admin.token,
      });
    expect((await revoke(reason)).statusCode).toBe(200);
    const [mail, ...more] = await mailsTo(s, owner.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toMatch(/license was revoked$/);
    expect(mail!.text).toContain(`Reason: ${reason}`);
    expect(mail!.text).toContain(`ending in ${license.license_key.slice(-5)}`);
    expect(mail!.text).not.toContain(license.license_key);
    expect(mail!.html).toContain('Chargeback &lt;b&gt;filed&lt;/b&gt; &amp; &quot;disputed&quot;');
    expect(mail!.html).not.toContain('<b>filed</b>');
    expect(mail!.headers.has('list-unsubscribe'), 'transactional mail has no unsubscribe').toBe(false);

    // Refused (already revoked): its transaction rolls back, and no second mail is queued.
    expect((await revoke('Again')).statusCode).toBe(409);
    expect(await kindOf(s, owner.email, 'license_revoked')).toHaveLength(1);
  });

  it('unsubscribes with one click over HTTP: the link alone changes nothing, the POST turns the preference off', async () => {
    const s = server();
    const user = await account(s, 'unsubscribe');
    const token = await signInFrom(s, user.email, CHROME_LINUX);
    await signInFrom(s, user.email, SAFARI_IPHONE, '192.0.2.70');
    const [alert] = (await mailsTo(s, user.email)).filter((mail) => mail.subject.startsWith('New sign-in'));
    const url = alert!.headers.get('list-unsubscribe')!.slice(1, -1);
    const base = await s.listen();
    const address = url.replace('http://portal.test', base);
    const securityAlerts = async () =>
      (await s.api({ path: '/users/me', token })).json<{
        preferences: { notifications: Record<string, boolean> };
      }>().preferences.notifications.security_alerts;

    // Opening the link (as a mail scanner would) asks; it does not unsubscribe.
    // (A parameter a link checker adds does no harm.)
    const page = await fetch(`${address}&utm_source=mail`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('Stop sending security alerts to');
    expect(html).toContain('<form method="post">');
    const asked = await fetch(address);
    expect(await asked.json()).toMatchObject({ preference: 'security_alerts', subscribed: true });
    expect(await securityAlerts()).toBe(true);

    // The mail provider's one-click POST: a form body, no client key, no session.
    const oneClick = await fetch(address, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toMatchObject({
      preference: 'security_alerts',
      subscribed: false,
      message: expect.stringContaining('no longer receive security alerts'),
    });
    expect(await securityAlerts()).toBe(false);
    // The other preferences are untouched.
    const prefs = (await s.api({ path: '/users/me', token })).json<{
      preferences: { notifications: Record<string, boolean> };
    }>().preferences.notifications;
    expect(prefs).toMatchObject({ billing: true, product_updates: true });

    // Again (a second click, a browser's form, a multipart body): the same answer.
    const again = await fetch(address, {
      method: 'POST',
      headers: { accept: 'text/html' },
      body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }),
    });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('You will no longer receive security alerts');
    const multipart = new FormData();
    multipart.set('List-Unsubscribe', 'One-Click');
    expect((await fetch(address, { method: 'POST', body: multipart })).status).toBe(200);

    // And no alert while it is off.
    await signInFrom(s, user.email, FIREFOX_WINDOWS, '198.51.100.80');
    expect(await kindOf(s, user.email, 'new_sign_in')).toHaveLength(1);
  });

  it('answers a forged, altered or missing unsubscribe token with a 4xx JSON error and changes nothing', async () => {
    const s = server();
    const user = await account(s, 'forged');
    const real = new URL(s.app.mailer.unsubscribeUrl(user.id, 'billing'));
    const token = real.searchParams.get('token')!;
    const [payload, signature] = token.split('.');
    const otherPreference = Buffer.from(`u1.${user.id}.security_alerts`).toString('base64url');
    const path = `${API_BASE_PATH}/notifications/unsubscribe`;
    const cases = [
      { token: `${payload}.${'A'.repeat(43)}`, status: 400, code: 'invalid_unsubscribe_link' },
      { token: `${otherPreference}.${signature}`, status: 400, code: 'invalid_unsubscribe_link' },
      { token: 'not-a-token', status: 400, code: 'invalid_unsubscribe_link' },
      { token: '', status: 400, code: 'validation_error' },
    ];
    for (const { token: bad, status, code } of cases) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await s.app.inject({
          method,
          url: `${path}?token=${encodeURIComponent(bad)}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
          payload: method === 'POST' ? 'List-Unsubscribe=One-Click' : undefined,
        });
        expect(response.statusCode, `${method} ${bad}`).toBe(status);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.json()).toMatchObject({
          code,
          message: expect.any(String),
          detail: expect.any(String),
        });
      }
    }
    const missing = await s.app.inject({ method: 'POST', url: path });
    expect(missing.statusCode).toBe(400);
    const row = await s.app.db
      .selectFrom('users')
      .select('preferences')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(JSON.parse(row!.preferences).notifications?.billing ?? true).toBe(true);

    // A valid link for an account deleted since.
    await s.app.db.deleteFrom('users').where('id', '=', user.id).execute();
    const gone = await s.app.inject({ method: 'POST', url: `${path}?token=${token}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'user_not_found' });
  });

  it('sends the files of a queued mail: bytes kept with the row, and references resolved when sent', async () => {
    const s = server();
    const email = uniqueEmail('files');
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.7\n'),
      Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256)),
    ]);
    const notes = Buffer.from('machine: x86_64\nversion: 1.2.3\n');
    let resolverFails = true;
    const asked: string[] = [];
    s.app.mailer.registerAttachmentResolver('test_pdf', async (_db, id) => {
      asked.push(id);
      if (resolverFails) throw new Error('the PDF renderer is not ready');
      return pdf;
    });
    const mail = composeMail({
      kind: 'test_files',
      to: email,
      subject: 'Two files',
      content: { preview: 'Files', heading: 'Files', body: [{ paragraph: 'Two files are attached.' }] },
      attachments: [
        { filename: 'invoice-7.pdf', contentType: 'application/pdf', ref: { kind: 'test_pdf', id: 'inv-7' } },
        { filename: 'diagnostics.txt', contentType: 'text/plain', content: notes },
      ],
    });
    await s.app.db.transaction().execute((trx) => s.app.mailer.queue(trx, mail));
    await s.app.mailOutbox.drain();

    // A resolver that fails fails the attempt: retried later, never sent without the file.
    const [waiting] = await kindOf(s, email, 'test_files');
    expect(waiting).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'the PDF renderer is not ready',
    });
    expect(await mailsTo(s, email)).toEqual([]);

    resolverFails = false;
    s.clock.advance(Date.parse(waiting!.next_attempt_at) - s.clock.now().getTime() + 1000);
    const [sent] = await mailsTo(s, email);
    expect(asked).toEqual(['inv-7', 'inv-7']);
    expect(sent!.raw).toMatch(/^Content-Type: multipart\/mixed;\s+boundary=/m);
    expect(sent!.raw).toMatch(/^Content-Type: multipart\/alternative;\s+boundary=/m);
    expect(sent!.text).toContain('Two files are attached.');
    expect(sent!.html).toContain('Two files are attached.');
    const files = new Map(sent!.attachments.map((file) => [file.filename, file]));
    expect(files.get('invoice-7.pdf')?.mimeType).toBe('application/pdf');
    expect(files.get('invoice-7.pdf')?.content.equals(pdf)).toBe(true);
    expect(files.get('diagnostics.txt')?.content.equals(notes)).toBe(true);
    // Sent: the row forgets the bytes it held.
    expect((await kindOf(s, email, 'test_files'))[0]).toMatchObject({ status: 'sent', attachments: null });
  });

  it('does not send a mail whose attachment kind has no resolver, and says why', async () => {
    const s = server();
    const email = uniqueEmail('no-resolver');
    await s.app.db.transaction().execute((trx) =>
      s.app.mailer.queue(
        trx,
        composeMail({
          kind: 'test_unresolved',
          to: email,
          subject: 'A file',
          content: { preview: 'File', heading: 'File', body: [{ paragraph: 'A file.' }] },
          attachments: [
            { filename: 'x.pdf', contentType: 'application/pdf', ref: { kind: 'nobody_knows', id: '1' } },
          ],
        }),
      ),
    );
    await s.app.mailOutbox.drain();
    expect((await kindOf(s, email, 'test_unresolved'))[0]).toMatchObject({
      status: 'pending',
      last_error: 'no attachment resolver is registered for nobody_knows',
    });
    expect(await mailsTo(s, email)).toEqual([]);
  });
});
