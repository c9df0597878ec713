import { expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { runCli } from '../../support/run-cli.js';
import { member } from '../helpers/license-helpers.js';
import { chargesOf, subscribe, subscriptionRow } from '../helpers/subscription-helpers.js';

/** The CLI on the test server's database and data directory (where the sandbox secret is). */
const cliEnvironment = (s: TestServer): Record<string, string> => ({
  DATA_DIR: s.config.dataDir,
  LOG_LEVEL: 'silent',
  WEB_DIR: s.config.webDir,
  ...(s.config.databaseUrl ? { DATABASE_URL: s.config.databaseUrl } : {}),
});

describeOnEveryDatabase('CLI: sandbox-renew', (server) => {
  it('renews a sandbox subscription now, then declines the next renewal with --card declines', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription } = await subscribe(s, buyer);

    // In a process of its own, as an operator runs it; the rest in this process.
    const renewed = await runCli(['sandbox-renew', '--subscription', subscription.id], cliEnvironment(s), {
      via: 'process',
    });
    expect(renewed, renewed.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(renewed.stdout).toMatch(/^Subscription .* \(Pro[^)]*\) is active: paid to \S+, next charge /m);
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({ status: 'active', cycles: 2 });

    const declined = await runCli(
      ['sandbox-renew', '--subscription', subscription.provider_subscription_id, '--card', 'declines'],
      cliEnvironment(s),
    );
    expect(declined, declined.stderr).toMatchObject({ code: 0 });
    expect(declined.stdout).toMatch(/is past_due: .*grace until /);
    expect((await chargesOf(s, subscription.id)).map((charge) => charge.status)).toEqual([
      'paid',
      'paid',
      'failed',
    ]);
    // A process of its own takes seconds on a busy machine.
  }, 90_000);

  it('refuses an unknown subscription and a bad --card with a message and exit code 1', async () => {
    const s = server();
    const unknown = await runCli(['sandbox-renew', '--subscription', 'sub_nobody'], cliEnvironment(s));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Subscription not found/);
    const badCard = await runCli(
      ['sandbox-renew', '--subscription', 'x', '--card', 'maybe'],
      cliEnvironment(s),
    );
    expect(badCard.code).toBe(1);
    expect(badCard.stderr).toMatch(/--card is succeeds or declines/);
  });
});
