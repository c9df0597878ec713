import { expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { giveLicense, type Member, member } from '../helpers/license-helpers.js';
import { DAY, subscribe } from '../helpers/subscription-helpers.js';

const mailsTo = async (s: TestServer, who: Member) =>
  (await s.outbox()).filter((mail) => mail.to.includes(who.email)).map((mail) => mail.subject);

describeOnEveryDatabase('license expiry notices (licenses bought once)', (server) => {
  it('tells the owner a week before and when it has expired, once each however often the scheduler runs', async () => {
    const s = server();
    const owner = await member(s);
    const muted = await member(s);
    const subscriber = await member(s);
    s.clock.freeze();
    const license = await giveLicense(s, owner, 'pro-monthly');
    await giveLicense(s, muted, 'pro-monthly');
    await subscribe(s, subscriber);
    const turnedOff = await s.api({
      method: 'PUT',
      path: '/users/me/preferences',
      token: muted.token,
      body: { notifications: { billing: false } },
    });
    expect(turnedOff.statusCode, turnedOff.body).toBe(200);

    const expiresAt = Date.parse(license.expires_at as string);
    s.clock.advance(expiresAt - 8 * DAY - s.clock.now().getTime());
    await s.app.scheduler.runOnce();
    expect((await mailsTo(s, owner)).filter((subject) => / expires on /.test(subject))).toEqual([]);

    s.clock.advance(2 * DAY);
    await s.app.scheduler.runOnce();
    await s.app.scheduler.runOnce();
    expect((await mailsTo(s, owner)).filter((subject) => / expires on /.test(subject))).toHaveLength(1);
    // The optional reminder honours the billing preference; the subscription's license has its own mail.
    expect((await mailsTo(s, muted)).filter((subject) => / expires on /.test(subject))).toEqual([]);
    expect((await mailsTo(s, subscriber)).filter((subject) => / expires on /.test(subject))).toEqual([]);

    s.clock.advance(7 * DAY);
    await s.app.scheduler.runOnce();
    await s.app.scheduler.runOnce();
    const owners = await mailsTo(s, owner);
    expect(owners.filter((subject) => / license has expired$/.test(subject))).toHaveLength(1);
    // The expiry itself is always told (it is not optional mail).
    expect((await mailsTo(s, muted)).filter((subject) => / license has expired$/.test(subject))).toHaveLength(
      1,
    );
  });
});
