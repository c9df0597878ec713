import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../../src/shared/constants.js';
import { webhookDisabledMail } from '../../../src/server/integrations/webhooks/mail.js';
import {
  invitationMail,
  memberJoinedMail,
  memberRemovedMail,
} from '../../../src/server/licensing/organisations/mail.js';
import {
  duplicateSubscriptionRefundedMail,
  newSignInMail,
  receiptMail,
  refundReceiptMail,
  renewalReminderMail,
  subscriptionCancelledMail,
  subscriptionPauseEndedMail,
  subscriptionPausedMail,
  subscriptionResumedMail,
} from '../../../src/server/platform/mail/customer-mails.js';
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatMoney,
} from '../../../src/server/platform/mail/formatting.js';
import { mailI18n } from '../../../src/server/platform/mail/mail-i18n.js';
import { passwordResetMail, verificationMail } from '../../../src/server/platform/mail/templates.js';
import { trialEndingMail, trialExpiredMail } from '../../../src/server/platform/mail/trial-mails.js';
import { allowanceMail } from '../../../src/server/platform/mail/usage-mails.js';
import { supportRequestMail, supportRequestReceivedMail } from '../../../src/server/support/mail.js';

// Issue 34, item 6: mail is written in the recipient's language (their `preferences.language`)
// when it is queued; English, and any language the portal does not speak, stays as it was.

const link = 'https://portal.test/verify?token=abc';
const receipt = (language?: string | null) =>
  receiptMail({
    to: 'ada@example.test',
    name: 'Ada',
    language,
    amountMinor: 49900,
    currency: 'INR',
    planName: 'Pro',
    paidAt: '2026-04-03T14:05:00Z',
    paidUntil: '2027-04-03T14:05:00Z',
    invoiceId: 'inv_1',
    invoiceNumber: 'INV-0001',
    billingUrl: 'https://portal.test/billing',
  });

describe('mail in the recipient’s language', () => {
  it('writes a German user’s verification mail and receipt in German, dates and amounts too', () => {
    const verification = verificationMail('ada@example.test', link, 'de-AT');
    expect(verification.subject).toBe(`Bestätigen Sie Ihr ${PRODUCT_NAME}-Konto`);
    expect(verification.text).toContain('Meine E-Mail-Adresse bestätigen:\n' + link);
    expect(verification.text).toContain(`— Ihr ${PRODUCT_NAME}-Team`);
    expect(verification.html).toContain('lang="de"');
    expect(verification.html).toContain('Oder öffnen Sie diesen Link:');

    const mail = receipt('de');
    expect(mail.subject).toBe(`Ihre ${PRODUCT_NAME}-Quittung INV-0001`);
    expect(mail.text).toContain('Hallo Ada,');
    expect(mail.text).toContain('Vielen Dank für Ihre Zahlung');
    expect(mail.text).toContain(`Gezahlter Betrag: ${formatMoney(49900, 'INR', 'de')}`);
    expect(formatMoney(49900, 'INR', 'de')).toMatch(/^499,00\s₹$/);
    expect(mail.text).toContain('Bezahlt am: 3. April 2026');
    expect(mail.text).not.toContain('Thank you');
  });

  it('writes an optional mail’s reason and unsubscribe link in the recipient’s language', () => {
    const mail = renewalReminderMail({
      to: 'ada@example.test',
      language: 'de',
      amountMinor: 49900,
      currency: 'INR',
      planName: 'Pro',
      renewsAt: '2026-05-01T00:00:00Z',
      subscriptionUrl: 'https://portal.test/subscription',
      unsubscribeUrl: 'https://portal.test/unsubscribe?t=1',
    });
    expect(mail.subject).toBe('Ihr Pro-Abonnement verlängert sich am 1. Mai 2026');
    expect(mail.text).toContain(
      'Sie erhalten Zahlungserinnerungen, weil sie in Ihren Benachrichtigungseinstellungen aktiviert sind.\n' +
        'Um diese E-Mails abzubestellen: https://portal.test/unsubscribe?t=1',
    );
    expect(mail.html).toContain('Diese E-Mails abbestellen');
  });

  it('writes a Spanish user’s receipt in Spanish', () => {
    const mail = receipt('es');
    expect(mail.subject).toBe(`Tu recibo de ${PRODUCT_NAME} INV-0001`);
    expect(mail.text).toContain('Hola, Ada:');
    expect(mail.text).toContain('Gracias por tu pago');
    expect(mail.text).toContain(`Pagado el: ${formatDate('2026-04-03T14:05:00Z', 'es')}`);
    expect(formatDate('2026-04-03T14:05:00Z', 'es')).toBe('3 de abril de 2026');
    expect(mail.html).toContain('Ver facturación');
  });

  it('writes a Hindi user’s password reset in Hindi', () => {
    const mail = passwordResetMail('ada@example.test', link, 'hi');
    expect(mail.subject).toBe(`अपना ${PRODUCT_NAME} पासवर्ड रीसेट करें`);
    expect(mail.text).toContain('नया पासवर्ड चुनें:\n' + link);
    expect(mail.html).toContain('lang="hi"');
  });

  it('keeps English, and a language the portal does not speak, exactly as before', () => {
    for (const language of [undefined, null, 'en', 'en-US', 'pt-BR']) {
      const mail = verificationMail('ada@example.test', link, language);
      expect(mail.subject).toBe(`Confirm your ${PRODUCT_NAME} account`);
      expect(mail.text).toBe(
        [
          `Welcome to ${PRODUCT_NAME}`,
          'Confirm your e-mail address to finish creating your account.',
          `Confirm my e-mail address:\n${link}`,
          'The link works once and expires in 24 hours. If you did not sign up, ignore this message.',
          `— The ${PRODUCT_NAME} team`,
        ].join('\n\n'),
      );
      expect(mail.html).toContain('lang="en"');
    }
    expect(receipt('fr')).toEqual(receipt(undefined));
    expect(receipt(undefined).text).toContain('Amount paid: ₹499.00');
    expect(receipt(undefined).text).toContain('Paid on: 3 April 2026');
  });

  it('speaks the plural rules of each language', () => {
    expect(mailI18n('de')._({ id: 'mail.receipt.seatCount' }, { seats: 1 })).toBe('1 Platz');
    expect(mailI18n('es')._({ id: 'mail.receipt.seatCount' }, { seats: 3 })).toBe('3 puestos');
    expect(mailI18n('en')._({ id: 'mail.receipt.seatCount' }, { seats: 2 })).toBe('2 seats');
  });
});

const to = { to: 'ada@example.test', name: 'Ada' };
const subscriptionUrl = 'https://portal.test/subscriptions';
const rupees = (amountMinor: number, language = 'de') => formatMoney(amountMinor, 'INR', language);
/** A mail's every word: German mail must not slip into English anywhere. */
const whole = (mail: { subject: string; text: string; html?: string | undefined }) =>
  `${mail.subject}\n${mail.text}\n${mail.html ?? ''}`;
const english = /\b(Your|your|Hello|the|and|is|was|has)\b/;

describe('the rest of the mail in the recipient’s language', () => {
  it('writes the subscription’s cancellation, resumption, pause and its end in German', () => {
    const cancelled = subscriptionCancelledMail({
      ...to,
      language: 'de',
      planName: 'Pro',
      endsAt: '2026-05-01T00:00:00Z',
      immediately: false,
      creditKept: { amountMinor: 10000, currency: 'INR' },
      subscriptionUrl,
    });
    expect(cancelled.subject).toBe('Ihr Pro-Abonnement ist gekündigt');
    expect(cancelled.text).toContain('Hallo Ada,');
    expect(cancelled.text).toContain(
      `Ihr Pro-Abonnement wurde gekündigt. Es wird Ihnen nichts mehr berechnet, und Ihre Lizenz bleibt bis ${formatDateTime('2026-05-01T00:00:00Z', 'de')} aktiv.`,
    );
    expect(cancelled.text).toContain(`${rupees(10000)} Guthaben aus einem früheren Tarifwechsel`);
    expect(cancelled.text).toContain('vor dem 1. Mai 2026 fortsetzen');
    expect(cancelled.text).toContain('Abonnement fortsetzen:\n' + subscriptionUrl);
    expect(whole(cancelled)).not.toMatch(english);

    const ended = subscriptionCancelledMail({
      ...to,
      language: 'de',
      planName: 'Pro',
      endsAt: '2026-05-01T00:00:00Z',
      immediately: true,
      refund: { amountMinor: 25000, currency: 'INR' },
      subscriptionUrl,
    });
    expect(ended.text).toContain(`Der nicht genutzte Teil des bezahlten Zeitraums, ${rupees(25000)}, wird`);
    expect(ended.text).toContain('Tarife ansehen:\n' + subscriptionUrl);
    expect(whole(ended)).not.toMatch(english);

    const resumed = subscriptionResumedMail({
      ...to,
      language: 'de',
      amountMinor: 49900,
      currency: 'INR',
      planName: 'Pro',
      renewsAt: '2026-05-01T00:00:00Z',
      subscriptionUrl,
    });
    expect(resumed.subject).toBe('Ihr Pro-Abonnement wird fortgesetzt');
    expect(resumed.text).toContain(`Nächste Abbuchung: ${rupees(49900)}`);
    expect(resumed.text).toContain('Verlängerung am: 1. Mai 2026');
    expect(whole(resumed)).not.toMatch(english);

    const paused = subscriptionPausedMail({
      ...to,
      language: 'de',
      planName: 'Pro',
      periods: 2,
      startsAt: '2026-05-01T00:00:00Z',
      resumesAt: '2026-07-01T00:00:00Z',
      subscriptionUrl,
    });
    expect(paused.subject).toBe('Ihr Pro-Abonnement ist bis zum 1. Juli 2026 pausiert');
    expect(paused.text).toContain('Ihr Pro-Abonnement pausiert für 2 Abrechnungszeiträume.');
    expect(paused.text).toContain('Lizenz gültig bis: 1. Mai 2026');
    expect(whole(paused)).not.toMatch(english);
    expect(
      subscriptionPausedMail({
        ...to,
        planName: 'Pro',
        periods: 1,
        startsAt: '2026-05-01T00:00:00Z',
        resumesAt: '2026-06-01T00:00:00Z',
        subscriptionUrl,
      }).text,
    ).toContain('Your Pro subscription pauses for one billing period.');

    const withdrawn = subscriptionPauseEndedMail({
      ...to,
      language: 'de',
      planName: 'Pro',
      withdrawn: true,
      renewsAt: '2026-05-01T00:00:00Z',
      subscriptionUrl,
    });
    expect(withdrawn.subject).toBe('Ihr Pro-Abonnement ist nicht mehr pausiert');
    expect(withdrawn.text).toContain('Ihre Pause ist zurückgenommen');
    expect(whole(withdrawn)).not.toMatch(english);
  });

  it('writes the duplicate subscription’s refund and the refund receipt in German', () => {
    const duplicate = duplicateSubscriptionRefundedMail({
      ...to,
      language: 'de',
      amountMinor: 49900,
      currency: 'INR',
      planName: 'Pro',
      paidAt: '2026-04-03T14:05:00Z',
      subscriptionUrl,
    });
    expect(duplicate.subject).toBe('Ihre zweite Zahlung für Pro wird erstattet');
    expect(duplicate.text).toContain(
      `Am ${formatDateTime('2026-04-03T14:05:00Z', 'de')} wurde ein zweites Abonnement`,
    );
    expect(duplicate.text).toContain(`Die Zahlung von ${rupees(49900)} wird vollständig`);
    expect(whole(duplicate)).not.toMatch(english);

    const refund = refundReceiptMail({
      ...to,
      language: 'de',
      amountMinor: 10000,
      currency: 'INR',
      paidMinor: 49900,
      refundedMinor: 10000,
      planName: 'Pro',
      paidAt: '2026-04-03T14:05:00Z',
      refundedAt: '2026-04-10T09:00:00Z',
      invoiceNumber: 'INV-0001',
      creditNoteId: 'cn_1',
      creditNoteNumber: 'CN-0001',
      billingUrl: 'https://portal.test/billing',
    });
    expect(refund.subject).toBe(`Ihre ${PRODUCT_NAME}-Erstattung CN-0001`);
    expect(refund.text).toContain(`Zahlung: ${rupees(49900)}, bisher ${rupees(10000)} erstattet`);
    expect(refund.text).toContain('Erstattet am: 10. April 2026');
    expect(refund.text).toContain('Gutschrift: CN-0001');
    expect(refund.attachments?.[0]?.filename).toBe('credit-note-CN-0001.pdf');
    expect(whole(refund)).not.toMatch(english);
  });

  it('writes the free trial’s reminders and its end in German', () => {
    const trial = {
      ...to,
      language: 'de',
      planName: 'Pro',
      licenseKey: 'LIC-AAAA-BBBB-12345',
      endsAt: '2026-04-06T10:00:00Z',
      buyUrl: 'https://portal.test/purchase?plan=pro',
    };
    const unsubscribeUrl = 'https://portal.test/unsubscribe?t=1';
    const free = trialEndingMail({ ...trial, lastDay: false, unsubscribeUrl });
    expect(free.subject).toBe('Ihre kostenlose Testphase für Pro endet am 6. April 2026');
    expect(free.text).toContain(
      `Ihre kostenlose Testphase für Pro endet am ${formatDateTime(trial.endsAt, 'de')} (Lizenz endet auf 12345).`,
    );
    expect(free.text).toContain('Jetzt kaufen:\n' + trial.buyUrl);
    expect(free.text).toContain('Sie erhalten Zahlungserinnerungen');
    expect(whole(free)).not.toMatch(english);

    const card = trialEndingMail({
      ...trial,
      lastDay: true,
      unsubscribeUrl,
      charge: { amountMinor: 49900, currency: 'INR', at: '2026-04-06T10:00:00Z', manageUrl: subscriptionUrl },
    });
    expect(card.subject).toBe(`Ihre Karte wird heute mit ${rupees(49900)} für Pro belastet`);
    expect(card.text).toContain('Ihre kostenlose Testphase endet heute');
    expect(whole(card)).not.toMatch(english);

    const expired = trialExpiredMail(trial);
    expect(expired.subject).toBe('Ihre kostenlose Testphase für Pro ist abgelaufen');
    expect(expired.text).toContain('Kaufen Sie Pro, um fortzufahren.');
    expect(whole(expired)).not.toMatch(english);
  });

  it('writes the usage allowance’s mail in German, its counts and percent too', () => {
    const usage = {
      ...to,
      language: 'de',
      licenseKey: 'LIC-AAAA-BBBB-12345',
      featureName: 'Exports',
      unit: 'exports',
      period: 'month' as const,
      used: 12_000,
      limit: 15_000,
      resetsAt: '2026-05-01T00:00:00Z',
      usageUrl: 'https://portal.test/usage',
      unsubscribeUrl: 'https://portal.test/unsubscribe?t=1',
    };
    const warning = allowanceMail({
      ...usage,
      reached: false,
      overage: { policy: 'cap', priceMinor: 500, perUnits: 1000, currency: 'INR', cap: 5000 },
    });
    expect(warning.subject).toBe(
      'Sie haben in diesem Monat 80\u00a0% Ihres Kontingents für Exports verbraucht',
    );
    expect(warning.text).toContain(
      'Ihre Lizenz (endet auf 12345) hat in diesem Monat 12.000 von 15.000 exports für Exports verbraucht.',
    );
    expect(warning.text).toContain(
      `Bis zu 5.000 exports mehr können genutzt werden, berechnet zu ${rupees(500)} pro 1.000 exports`,
    );
    expect(warning.text).toContain('Ihre Nutzung ansehen:\nhttps://portal.test/usage');

    const reached = allowanceMail({
      ...usage,
      unit: null,
      used: 15_000,
      reached: true,
      overage: { policy: 'stop' },
    });
    expect(reached.subject).toBe(
      'Sie haben Ihr Kontingent für Exports in diesem Monat vollständig verbraucht',
    );
    expect(reached.text).toContain('15.000 von 15.000 Einheiten für Exports verbraucht');
    expect(reached.text).toContain(
      'Exports ist auf Ihren Geräten gestoppt, bis das Kontingent am 1. Mai 2026',
    );
    expect(
      allowanceMail({ ...usage, language: 'en', reached: false, overage: { policy: 'stop' } }).subject,
    ).toBe('You have used 80% of Exports this month');
  });

  it('writes the support request’s acknowledgement in the customer’s German, and support’s copy in English', () => {
    const request = {
      reference: 'SR-1234',
      topic: 'Billing and payments',
      subject: 'Invoice address',
      message: 'Please change the address on my invoice to the new office.',
      sentAt: new Date('2026-04-03T14:05:00Z'),
    };
    const received = supportRequestReceivedMail({
      ...to,
      language: 'de',
      ...request,
      supportUrl: 'https://portal.test/support',
      replyTo: undefined,
    });
    expect(received.subject).toBe('[SR-1234] Wir haben Ihre Anfrage erhalten: Invoice address');
    expect(received.text).toContain('Hallo Ada,');
    expect(received.text).toContain('Thema: Abrechnung und Zahlungen');
    expect(received.text).toContain('Ihre Nachricht:\n\nPlease change the address');
    expect(received.text).toContain('senden Sie eine weitere Anfrage über die Support-Seite');

    const copy = supportRequestMail({
      to: 'support@example.test',
      ...request,
      customerEmail: 'ada@example.test',
      customerName: 'Ada',
      userId: 'u_1',
      diagnostics: null,
    });
    expect(copy.subject).toBe('[SR-1234] Billing and payments: Invoice address');
    expect(copy.html).toContain('lang="en"');
  });

  it('writes the organisation’s invitation and its members’ mail in German', () => {
    const invitation = invitationMail({
      to: 'ada@example.test',
      language: 'de',
      organisationName: 'Acme',
      inviter: null,
      role: 'admin',
      link: 'https://portal.test/invitation#token=t',
      expiresAt: '2026-04-10T12:00:00Z',
    });
    expect(invitation.subject).toBe(`Treten Sie Acme bei ${PRODUCT_NAME} bei`);
    expect(invitation.text).toContain(
      `Ein Administrator hat Sie eingeladen, Acme bei ${PRODUCT_NAME} als Administrator beizutreten.`,
    );
    expect(invitation.text).toContain(`bis ${formatDateTime('2026-04-10T12:00:00Z', 'de')}`);
    expect(whole(invitation)).not.toMatch(english);
    expect(
      invitationMail({
        to: 'ada@example.test',
        language: 'de',
        organisationName: 'Acme',
        inviter: { identityProvider: true },
        role: 'member',
        link: 'l',
        expiresAt: '2026-04-10T12:00:00Z',
      }).text,
    ).toContain('Der Identitätsanbieter von Acme hat Sie eingeladen');

    const removed = memberRemovedMail({
      ...to,
      language: 'de',
      organisationName: 'Acme',
      removedBy: null,
      hadSeat: true,
      machinesEnded: 3,
      purchaseUrl: 'https://portal.test/purchase',
    });
    expect(removed.subject).toBe(`Sie wurden aus Acme bei ${PRODUCT_NAME} entfernt`);
    expect(removed.text).toContain(`Ein Administrator von ${PRODUCT_NAME} hat Sie aus Acme`);
    expect(removed.text).toContain('die 3 Geräte, die Sie damit aktiviert haben, funktionieren');
    expect(whole(removed)).not.toMatch(english);

    const joined = memberJoinedMail({
      ...to,
      language: 'de',
      organisationName: 'Acme',
      member: 'Grace (grace@example.test)',
      role: 'member',
      seatsHeld: 3,
      seats: 5,
      organisationUrl: 'https://portal.test/organisations/o1',
    });
    expect(joined.subject).toBe('Grace (grace@example.test) ist Acme beigetreten');
    expect(joined.text).toContain('Rolle: Mitglied');
    expect(joined.text).toContain('Belegte Plätze: 3 von 5');
    expect(whole(joined)).not.toMatch(english);
  });

  it('writes the disabled webhook endpoint’s mail in the administrator’s German', () => {
    const mail = webhookDisabledMail({
      to: 'admin@example.test',
      language: 'de',
      url: 'https://hooks.example.test/in',
      description: '',
      failures: 12,
      failingSince: '2026-04-02T08:00:00Z',
      lastError: 'HTTP 500',
      disabledAt: new Date('2026-04-03T14:05:00Z'),
      manageUrl: 'https://portal.test/admin/webhooks',
    });
    expect(mail.subject).toBe(
      'Webhook-Endpunkt nach wiederholten Fehlern deaktiviert: https://hooks.example.test/in',
    );
    expect(mail.text).toContain(`höchstens ${formatCount(1000, 'de')}, bis zu 7 Tage`);
    expect(mail.text).toContain('Fehlgeschlagene Zustellungen in Folge: 12');
    expect(mail.text).toContain('Endpunkt prüfen:\nhttps://portal.test/admin/webhooks');
  });

  it('names the new sign-in’s device in German and Hindi, the browser’s and system’s names kept', () => {
    const alert = (device: string, language: string) =>
      newSignInMail({
        to: 'ada@example.test',
        language,
        device,
        ipAddress: '203.0.113.9',
        signedInAt: '2026-04-03T14:05:00Z',
        resetPasswordUrl: 'https://portal.test/forgot-password',
        unsubscribeUrl: 'https://portal.test/unsubscribe',
      }).text;
    expect(alert('Firefox on Windows', 'de')).toContain('Gerät: Firefox unter Windows');
    expect(alert('Unknown browser on Linux', 'de')).toContain('Gerät: Unbekannter Browser unter Linux');
    expect(alert('Unknown device', 'hi')).toContain('अज्ञात डिवाइस');
    expect(alert('Unknown device', 'hi')).not.toContain('Unknown');
    expect(alert('Chrome on macOS', 'en')).toContain('Device: Chrome on macOS');
  });

  it('writes the same mail in Spanish and Hindi', () => {
    const paused = (language: string) =>
      subscriptionPausedMail({
        ...to,
        language,
        planName: 'Pro',
        periods: 1,
        startsAt: '2026-05-01T00:00:00Z',
        resumesAt: '2026-06-01T00:00:00Z',
        subscriptionUrl,
      });
    expect(paused('es').subject).toBe(
      `Tu suscripción Pro está en pausa hasta el ${formatDate('2026-06-01T00:00:00Z', 'es')}`,
    );
    expect(paused('es').text).toContain('se pausa durante un periodo de facturación');
    expect(paused('hi').subject).toBe(
      `आपका Pro सब्सक्रिप्शन ${formatDate('2026-06-01T00:00:00Z', 'hi')} तक रोका गया है`,
    );
    expect(paused('hi').html).toContain('lang="hi"');
  });
});

const localesDir = join(import.meta.dirname, '../../../src/server/platform/mail/locales');

describe('the mail catalogs', () => {
  it('translate every message into every language', async () => {
    for (const locale of ['de', 'es', 'hi']) {
      const po = await readFile(join(localesDir, `${locale}.po`), 'utf8');
      const entries = po.split('\n\n').filter((entry) => /^msgid "./m.test(entry));
      expect(entries.length).toBeGreaterThan(50);
      const untranslated = entries.filter(
        (entry) => /^msgstr ""$/m.test(entry) && !/^"/m.test(entry.split(/^msgstr /m)[1] ?? ''),
      );
      expect(untranslated, `${locale}.po`).toEqual([]);
    }
  });

  it(
    'are compiled: each {locale}.ts is what `lingui compile` makes of its .po',
    { timeout: 60_000 },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'mail-catalogs-'));
      try {
        for (const file of await readdir(localesDir)) {
          if (file.endsWith('.po')) await cp(join(localesDir, file), join(dir, file));
        }
        const require = createRequire(import.meta.url);
        await writeFile(
          join(dir, 'lingui.config.cjs'),
          `const { formatter } = require(${JSON.stringify(require.resolve('@lingui/format-po'))});
module.exports = {
  sourceLocale: 'en',
  locales: ['en', 'de', 'es', 'hi'],
  fallbackLocales: { default: 'en' },
  format: formatter({ lineNumbers: false }),
  compileNamespace: 'ts',
  catalogs: [{ path: '<rootDir>/{locale}', include: ['<rootDir>/none/'] }],
};
`,
        );
        const cli = join(import.meta.dirname, '../../../node_modules/@lingui/cli/dist/lingui-compile.js');
        await promisify(execFile)(process.execPath, [
          cli,
          '--config',
          join(dir, 'lingui.config.cjs'),
          '--typescript',
        ]);
        for (const locale of ['en', 'de', 'es', 'hi']) {
          expect(
            await readFile(join(dir, `${locale}.ts`), 'utf8'),
            `${locale}.ts is stale: npm run i18n:mail`,
          ).toBe(await readFile(join(localesDir, `${locale}.ts`), 'utf8'));
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
