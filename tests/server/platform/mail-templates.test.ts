import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { mailBrand } from '../../../src/server/platform/mail/brand.js';
import {
  gracePeriodEndingMail,
  licenseExpiredMail,
  licenseExpiringSoonMail,
  licenseRevokedMail,
  licenseSuspendedMail,
  newSignInMail,
  paymentFailedMail,
  receiptMail,
  renewalReminderMail,
  subscriptionCancelledMail,
} from '../../../src/server/platform/mail/customer-mails.js';
import { formatDate, formatDateTime, formatMoney } from '../../../src/server/platform/mail/formatting.js';
import type { MailMessage } from '../../../src/server/platform/mail/message.js';
import {
  accountExistsMail,
  mailKinds,
  passwordChangedMail,
  passwordResetMail,
  passwordResetThroughSsoMail,
  verificationMail,
} from '../../../src/server/platform/mail/templates.js';
import { createUnsubscribeLinks } from '../../../src/server/platform/mail/unsubscribe.js';

// Every template, rendered for real: both parts, what each says, and that nothing a person typed
// becomes markup. Content is checked by assertion, not by snapshot.

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"`;
const to = 'ada@example.com';
const unsubscribeUrl = 'http://portal.test/api/v1/notifications/unsubscribe?token=abc.def';

/** The HTML part must never carry the hostile text as markup, only escaped. */
function expectEscaped(html: string): void {
  expect(html).not.toContain('<script>');
  expect(html).not.toContain('<img src=x');
  expect(html).toContain('&lt;script&gt;');
}

function expectBothParts(mail: MailMessage, says: string[], url: string): void {
  expect(mail.html).toMatch(/^<!DOCTYPE html>/);
  for (const words of says) {
    expect(mail.text, `text part: ${words}`).toContain(words);
    // The HTML writes quotes and ampersands as entities; the words themselves are there.
    expect(mail.html, `HTML part: ${words}`).toContain(
      words.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;'),
    );
  }
  expect(mail.text).toContain(url);
  expect(mail.html).toContain(`href="${url.replace(/&/g, '&amp;')}"`);
}

const optional = (mail: MailMessage) => {
  expect(mail.unsubscribeUrl).toBe(unsubscribeUrl);
  expect(mail.text).toContain(`To stop these mails: ${unsubscribeUrl}`);
  expect(mail.html).toContain('Stop these mails');
};
const transactional = (mail: MailMessage) => {
  expect(mail.unsubscribeUrl).toBeUndefined();
  expect(mail.text).not.toMatch(/stop these mails/i);
  expect(mail.html).not.toMatch(/stop these mails/i);
};

describe('the customer mails', () => {
  it('receipt: amount, plan, dates and invoice number, the invoice PDF attached by reference', () => {
    const mail = receiptMail({
      to,
      name: 'Ada',
      planName: 'Pro monthly',
      amountMinor: 49900,
      currency: 'INR',
      paidAt: '2026-04-03T23:30:00Z',
      paidUntil: '2026-05-03T23:30:00Z',
      invoiceId: 'inv-1',
      invoiceNumber: 'INV-2026/0007',
      billingUrl: 'http://portal.test/billing',
    });
    expect(mail.kind).toBe(mailKinds.receipt);
    expect(mail.subject).toBe('Your Desktop AI Assistant receipt INV-2026/0007');
    expectBothParts(
      mail,
      ['Hello Ada,', '₹499.00', 'Pro monthly', '3 April 2026', '3 May 2026', 'INV-2026/0007'],
      'http://portal.test/billing',
    );
    expect(mail.attachments).toEqual([
      {
        filename: 'invoice-INV-2026-0007.pdf',
        contentType: 'application/pdf',
        ref: { kind: 'invoice_pdf', id: 'inv-1' },
      },
    ]);
    transactional(mail);
  });

  it('renewal reminder: optional, with the amount, the date and an unsubscribe link', () => {
    const mail = renewalReminderMail({
      to,
      planName: 'Pro yearly',
      amountMinor: 1999,
      currency: 'usd',
      renewsAt: new Date('2027-01-10T00:00:00Z'),
      subscriptionUrl: 'http://portal.test/subscription',
      unsubscribeUrl,
    });
    expect(mail.kind).toBe('renewal_reminder');
    expect(mail.subject).toBe('Your Pro yearly subscription renews on 10 January 2027');
    expectBothParts(mail, ['Hello,', '$19.99', '10 January 2027'], 'http://portal.test/subscription');
    optional(mail);
  });

  it('payment failed: the reason, the end of the grace period, the next retry and the way to fix it', () => {
    const mail = paymentFailedMail({
      to,
      name: 'Ada',
      planName: 'Pro monthly',
      amountMinor: 49900,
      currency: 'INR',
      reason: 'card declined',
      nextRetryAt: '2026-04-05T10:00:00Z',
      graceEndsAt: '2026-04-10T10:00:00Z',
      subscriptionUrl: 'http://portal.test/subscription',
    });
    expect(mail.kind).toBe('payment_failed');
    expectBothParts(
      mail,
      ['card declined', '10 April 2026, 10:00 UTC', '5 April 2026', 'Update payment method'],
      'http://portal.test/subscription',
    );
    transactional(mail);
  });

  it('grace period ending: when the license will be suspended', () => {
    const mail = gracePeriodEndingMail({
      to,
      planName: 'Pro monthly',
      amountMinor: 49900,
      currency: 'INR',
      graceEndsAt: '2026-04-10T10:00:00Z',
      subscriptionUrl: 'http://portal.test/subscription',
    });
    expect(mail.kind).toBe('grace_period_ending');
    expect(mail.subject).toContain('10 April 2026');
    expectBothParts(mail, ['₹499.00', '10 April 2026, 10:00 UTC'], 'http://portal.test/subscription');
    transactional(mail);
  });

  it('license suspended: why, and only the end of the key', () => {
    const mail = licenseSuspendedMail({
      to,
      planName: 'Pro monthly',
      licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
      reason: 'The payment for your subscription is overdue.',
      fixUrl: 'http://portal.test/subscription',
    });
    expect(mail.kind).toBe('license_suspended');
    expectBothParts(
      mail,
      ['ending in EEEEE', 'The payment for your subscription is overdue.'],
      'http://portal.test/subscription',
    );
    expect(mail.text).not.toContain('AAAAA-BBBBB');
    transactional(mail);
  });

  it("license revoked: the administrator's reason, escaped in the HTML part", () => {
    const mail = licenseRevokedMail({
      to,
      name: HOSTILE,
      planName: 'Pro monthly',
      licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
      reason: `Chargeback ${HOSTILE}`,
      revokedAt: '2026-04-03T08:15:00Z',
      supportUrl: 'http://portal.test/support',
    });
    expect(mail.kind).toBe('license_revoked');
    expect(mail.text).toContain(`Reason: Chargeback ${HOSTILE}`);
    expectBothParts(mail, ['3 April 2026, 08:15 UTC', 'ending in EEEEE'], 'http://portal.test/support');
    expectEscaped(mail.html ?? '');
    expect(mail.html).toContain('Chargeback &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    transactional(mail);
  });

  it('license expired and expiring soon (optional)', () => {
    const expired = licenseExpiredMail({
      to,
      planName: 'Pro lifetime',
      licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
      expiredAt: '2026-04-03T00:00:00Z',
      renewUrl: 'http://portal.test/purchase',
    });
    expect(expired.kind).toBe('license_expired');
    expectBothParts(expired, ['expired on 3 April 2026, 00:00 UTC'], 'http://portal.test/purchase');
    transactional(expired);

    const soon = licenseExpiringSoonMail({
      to,
      planName: 'Pro 30 days',
      licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
      expiresAt: '2026-04-10T00:00:00Z',
      renewUrl: 'http://portal.test/purchase',
      unsubscribeUrl,
    });
    expect(soon.kind).toBe('license_expiring_soon');
    expect(soon.subject).toBe('Your Pro 30 days license expires on 10 April 2026');
    expectBothParts(soon, ['10 April 2026, 00:00 UTC'], 'http://portal.test/purchase');
    optional(soon);
  });

  it('subscription cancelled: at the end of the period, or at once', () => {
    const later = subscriptionCancelledMail({
      to,
      planName: 'Pro monthly',
      endsAt: '2026-05-01T00:00:00Z',
      immediately: false,
      subscriptionUrl: 'http://portal.test/subscription',
    });
    expect(later.kind).toBe('subscription_cancelled');
    expectBothParts(
      later,
      ['stays active until 1 May 2026, 00:00 UTC', 'Resume subscription'],
      'http://portal.test/subscription',
    );
    transactional(later);
    const now = subscriptionCancelledMail({
      to,
      planName: 'Pro monthly',
      endsAt: '2026-04-03T12:00:00Z',
      immediately: true,
      subscriptionUrl: 'http://portal.test/subscription',
    });
    expect(now.text).toContain('ended on 3 April 2026, 12:00 UTC');
    expect(now.text).not.toContain('Resume');
  });

  it('new sign-in: device, address and time, a hostile user agent escaped, an unsubscribe link', () => {
    const mail = newSignInMail({
      to,
      device: `Chrome on Linux ${HOSTILE}`,
      ipAddress: '203.0.113.9',
      signedInAt: '2026-04-03T14:05:00Z',
      resetPasswordUrl: 'http://portal.test/forgot-password',
      unsubscribeUrl,
    });
    expect(mail.kind).toBe('new_sign_in');
    expectBothParts(mail, ['203.0.113.9', '3 April 2026, 14:05 UTC'], 'http://portal.test/forgot-password');
    expect(mail.text).toContain(`Device: Chrome on Linux ${HOSTILE}`);
    expectEscaped(mail.html ?? '');
    optional(mail);
  });
});

describe('the account mails', () => {
  it('keep their words and links in the text part and gain an HTML part with a button', () => {
    const link = 'http://portal.test/verify-registration?token=t0k&x=1';
    const verification = verificationMail(to, link);
    expectBothParts(verification, ['expires in 24 hours'], link);
    expect(verification.link).toBe(link);

    const reset = passwordResetMail(to, 'http://portal.test/reset-password?token=r');
    expectBothParts(reset, ['expires in 1 hour'], 'http://portal.test/reset-password?token=r');

    const exists = accountExistsMail(to, 'http://portal.test/login', 'http://portal.test/forgot-password');
    expectBothParts(exists, ['already has one'], 'http://portal.test/login');
    expect(exists.text).toContain('http://portal.test/forgot-password');

    const changed = passwordChangedMail(to, 'http://portal.test/forgot-password');
    expectBothParts(changed, ['every device was signed out'], 'http://portal.test/forgot-password');

    // An organisation's name is the owner's words: escaped like anything typed.
    const throughSso = passwordResetThroughSsoMail(to, HOSTILE, 'http://portal.test/login');
    expectBothParts(throughSso, ['no password to reset here'], 'http://portal.test/login');
    expect(throughSso.text).toContain(HOSTILE);
    expectEscaped(throughSso.html ?? '');
    expect(throughSso.html ?? '').not.toContain('reset-password');
    expect(throughSso.kind).toBe(mailKinds.passwordReset);
    for (const mail of [verification, reset, exists, changed, throughSso]) transactional(mail);
  });
});

describe('the look', () => {
  it("uses the portal's colours (src/renderer/src/theme.ts) and a dark-mode style", async () => {
    const theme = await readFile(new URL('../../../src/renderer/src/theme.ts', import.meta.url), 'utf8');
    const scale = (name: string) => {
      const match = new RegExp(`const ${name}: MantineColorsTuple = \\[([^\\]]+)\\]`).exec(theme);
      return [...(match?.[1] ?? '').matchAll(/'(#[0-9a-f]{6})'/gi)].map((found) => found[1]);
    };
    const iris = scale('iris');
    const dark = scale('dark');
    expect(iris).toHaveLength(10);
    expect(mailBrand.light.primary).toBe(iris[6]);
    expect(mailBrand.light.link).toBe(iris[7]);
    expect(mailBrand.dark.link).toBe(iris[3]);
    expect(mailBrand.dark.page).toBe(dark[9]);
    expect(mailBrand.dark.card).toBe(dark[7]);
    expect(mailBrand.dark.text).toBe(dark[0]);
    expect(theme).toContain(`'--mantine-color-body': '${mailBrand.light.page}'`);
    expect(theme).toContain(`'--mantine-color-dimmed': '${mailBrand.light.dimmed}'`);

    const html = verificationMail(to, 'http://portal.test/x').html ?? '';
    expect(html).toContain('<meta name="color-scheme" content="light dark"/>');
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain(`background-color:${mailBrand.light.primary}`);
    expect(html).toContain('Desktop AI Assistant');
  });
});

describe('formatting', () => {
  it('writes amounts from minor units with the currency’s own decimals', () => {
    expect(formatMoney(49900, 'INR')).toBe('₹499.00');
    expect(formatMoney(1999, 'usd')).toBe('$19.99');
    expect(formatMoney(500, 'JPY')).toBe('¥500');
    // Intl puts a no-break space between a code and the number.
    expect(formatMoney(1234, 'KWD')).toBe('KWD\u00a01.234');
  });

  it('writes dates on the UTC calendar with the month as a word', () => {
    expect(formatDate('2026-04-03T23:59:59Z')).toBe('3 April 2026');
    expect(formatDate('2026-04-04T00:00:00+05:30')).toBe('3 April 2026');
    expect(formatDateTime('2026-04-03T04:05:00Z')).toBe('3 April 2026, 04:05 UTC');
  });
});

describe('unsubscribe links', () => {
  const links = createUnsubscribeLinks(
    new TextEncoder().encode('a server secret of enough length'),
    'http://p.test',
  );
  const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

  it('name the user and the preference, and only this server can make them', () => {
    const url = links.url('user-1', 'billing');
    expect(url).toMatch(/^http:\/\/p\.test\/api\/v1\/notifications\/unsubscribe\?token=/);
    expect(links.read(tokenOf(url))).toEqual({ userId: 'user-1', preference: 'billing' });

    const other = createUnsubscribeLinks(new TextEncoder().encode('another server secret'), 'http://p.test');
    expect(other.read(tokenOf(url))).toBeNull();
  });

  it('refuse a token whose preference or user was changed, or that is malformed', () => {
    const [, signature] = tokenOf(links.url('user-1', 'billing')).split('.');
    const swapped = Buffer.from('u1.user-1.security_alerts').toString('base64url');
    expect(links.read(`${swapped}.${signature}`)).toBeNull();
    const otherUser = Buffer.from('u1.user-2.billing').toString('base64url');
    expect(links.read(`${otherUser}.${signature}`)).toBeNull();
    for (const bad of ['', 'abc', 'a.b.c', '..', `${swapped}.`]) expect(links.read(bad)).toBeNull();
  });
});
