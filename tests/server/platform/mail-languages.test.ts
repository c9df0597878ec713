import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../../src/shared/constants.js';
import { receiptMail, renewalReminderMail } from '../../../src/server/platform/mail/customer-mails.js';
import { formatDate, formatMoney } from '../../../src/server/platform/mail/formatting.js';
import { mailI18n } from '../../../src/server/platform/mail/mail-i18n.js';
import { passwordResetMail, verificationMail } from '../../../src/server/platform/mail/templates.js';

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
