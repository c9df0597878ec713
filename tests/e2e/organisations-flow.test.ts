import { randomBytes } from 'node:crypto';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { type OutboxMail, readOutbox } from '../support/outbox.js';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, expectPath, signIn, watchPage } from './support/portal.js';

/**
 * Issue 18, "Must show", in Chromium on the sandbox, through the portal: an owner creates an
 * organisation and buys a 3-seat Business subscription → invites two people (both mails in the
 * outbox) → one signs up from the mail's link and activates this machine by signing in (the key is
 * never typed, and never on any page they see) → the owner sees the member's machine → removes the
 * member → the member's machine is refused at its next check, with the reason, and the seat is
 * free → the owner buys two more seats, the prorated charge shown first. Then the administrators'
 * Organisations screen shows it, on a desktop and a phone, light and dark.
 */

const DESKTOP_API_KEY = 'dap-desktop-public';
const MEMBER_MACHINE = {
  hardwareId: `hw-member-${randomBytes(6).toString('hex')}`,
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  name: 'Chrome on Windows',
};
const DAY_MS = 86_400_000;
const DESKTOP: BrowserContextOptions = {
  viewport: { width: 1440, height: 900 },
  colorScheme: 'light',
  reducedMotion: 'reduce',
};
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  colorScheme: 'light',
  reducedMotion: 'reduce',
};

describePortal(
  'organisations with named seats in the browser, on the sandbox',
  (portal) => {
    const db = () => portal.server.app.db;

    /** A license check from the member's machine over HTTP, as the desktop app makes it (both routes). */
    async function checks(licenseKey: string) {
      const body = { license_key: licenseKey, hardware_id: MEMBER_MACHINE.hardwareId };
      const headers = { 'x-api-key': DESKTOP_API_KEY };
      const post = await fetch(`${portal.server.baseUrl}/api/v1/licenses/validate`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const get = await fetch(
        `${portal.server.baseUrl}/api/v1/licensing/status?${new URLSearchParams(body)}`,
        {
          headers,
        },
      );
      return Promise.all(
        [post, get].map(async (response) => ({
          status: response.status,
          body: (await response.json()) as Record<string, unknown>,
        })),
      );
    }

    /** Mail to `email` whose subject matches, waited for (the outbox worker sends just after the commit). */
    async function mailTo(email: string, subject: RegExp): Promise<OutboxMail> {
      let found: OutboxMail | undefined;
      await expect
        .poll(
          async () => {
            found = (await readOutbox(portal.server.outboxDir)).find(
              (mail) => mail.to.includes(email) && subject.test(mail.subject),
            );
            return found !== undefined;
          },
          { timeout: 10_000, message: `mail to ${email} matching ${subject}` },
        )
        .toBe(true);
      return found!;
    }

    /** The invitation mail's one link, as path and fragment (`/invitations/accept#token=…`). */
    function invitationLink(mail: OutboxMail): string {
      const href = (mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? []).find((link) =>
        link.includes('/invitations/accept#token='),
      );
      expect(href, `an invitation link in "${mail.subject}"`).toBeTruthy();
      const url = new URL(href!);
      expect(url.origin).toBe('http://portal.test');
      return `${url.pathname}${url.hash}`;
    }

    /** Both schemes of what the page shows: each checked (photograph) and saved for a human. */
    async function shoot(page: Page, name: string, fullPage = true) {
      for (const scheme of ['light', 'dark'] as const) {
        await showScheme(page, scheme);
        await photograph(page, `${name}-${scheme}`, { scheme, fullPage });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }

    /** The administrators' screens as issue 6 checks every screen: axe, contrast undecided in dark, control contrast. */
    async function shootChecked(page: Page, name: string, { drawer = false } = {}) {
      for (const scheme of ['light', 'dark'] as const) {
        await showScheme(page, scheme);
        // A drawer's overlay lies over the screen behind it, so axe cannot decide that text's
        // contrast; the drawer's own text it decides and judges.
        await photograph(page, `${name}-${scheme}`, {
          scheme,
          fullPage: !drawer,
          accessible: drawer ? 'decided' : true,
        });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }

    async function noSidewaysScroll(page: Page) {
      const width = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
        '({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })',
      );
      expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
    }

    const seatsOf = async (organisationId: string) => {
      const rows = await db()
        .selectFrom('organisation_members')
        .select(['user_id', 'seat_assigned_at'])
        .where('organisation_id', '=', organisationId)
        .execute();
      return rows.filter((row) => row.seat_assigned_at !== null).length;
    };

    it('create → buy 3 seats → invite two → one signs up and activates by signing in → removed → refused → two seats more, prorated', async () => {
      const owner = await portal.server.createUser({ fullName: 'Olga Owner' });
      const invitees = [uniqueEmail('mina'), uniqueEmail('nils')] as const;
      const [memberEmail, otherEmail] = invitees;
      const organisationName = `Acme Tools ${randomBytes(3).toString('hex')}`;

      // The owner creates the organisation on /organisations.
      const ownerContext = await portal.newContext(DESKTOP);
      const ownerPage = await ownerContext.newPage();
      watchPage(ownerPage);
      await signIn(ownerPage, owner.email, owner.password);
      await ownerPage.goto('/organisations');
      await ownerPage.getByRole('button', { name: 'Create organization' }).first().click();
      const create = ownerPage.getByRole('dialog', { name: 'Create organization' });
      await create.getByRole('textbox', { name: 'Name' }).fill(organisationName);
      await create.getByRole('button', { name: 'Create organization' }).click();
      // Then the billing details its invoices carry.
      const billing = ownerPage.getByRole('dialog', { name: `Billing details for ${organisationName}` });
      await billing.getByRole('textbox', { name: 'Billing name' }).fill('Acme Tools Private Limited');
      await billing.getByRole('textbox', { name: 'Address', exact: true }).fill('12 MG Road');
      await billing.getByRole('textbox', { name: 'City' }).fill('Bengaluru');
      await billing.getByRole('textbox', { name: 'PIN code' }).fill('560001');
      await billing.getByRole('combobox', { name: /^State/ }).selectOption('Karnataka');
      await billing.getByRole('button', { name: 'Save billing details' }).click();
      await ownerPage.getByRole('heading', { level: 1, name: organisationName }).waitFor();
      const organisationId = new URL(ownerPage.url()).pathname.split('/').pop()!;
      expect(await ownerPage.getByTestId('organisation-seats').innerText()).toBe('No seats yet');

      // It buys the Business plan, 3 seats, through the sandbox checkout: the organisation's page
      // opens that organisation's checkout, the plan's dialog with the organisation chosen.
      await ownerPage.getByRole('link', { name: 'Buy the Business plan' }).click();
      await expectPath(ownerPage, '/purchase');
      const choose = ownerPage.getByRole('dialog', { name: 'Buy Business for an organization' });
      await expect.poll(() => choose.getByLabel('Organization').first().inputValue()).toBe(organisationName);
      await choose.getByRole('textbox', { name: 'Seats' }).fill('3');
      await expect
        .poll(() => choose.getByTestId('organisation-total').innerText())
        .toMatch(/^3 seats: ₹4,497/);
      await shoot(ownerPage, 'organisation-buy-seats-desktop', false);
      await choose.getByRole('button', { name: 'Continue to payment' }).click();
      const checkout = ownerPage.getByRole('dialog', { name: 'Sandbox checkout' });
      await checkout.getByRole('button', { name: 'Pay', exact: true }).click();
      await checkout.waitFor({ state: 'hidden' });
      await ownerPage.getByRole('heading', { name: 'Subscribed: your Business license is ready' }).waitFor();
      const license = await db()
        .selectFrom('licenses')
        .select(['id', 'license_key', 'seats', 'max_activations', 'user_id'])
        .where('organisation_id', '=', organisationId)
        .executeTakeFirstOrThrow();
      expect({ seats: license.seats, max_activations: license.max_activations }).toEqual({
        seats: 3,
        max_activations: 6,
      });

      // The owner holds the first seat and invites two people: both mails are in the outbox.
      await ownerPage.goto(`/organisations/${organisationId}`);
      await expect
        .poll(() => ownerPage.getByTestId('organisation-seats').first().innerText())
        .toBe('1 of 3 seats used');
      const invite = ownerPage.getByRole('form', { name: 'Invite someone' });
      for (const email of invitees) {
        await invite.getByRole('textbox', { name: 'E-mail' }).fill(email);
        await invite.getByRole('button', { name: 'Send invitation' }).click();
        await ownerPage.getByRole('region', { name: 'Invitations' }).getByText(email).waitFor();
      }
      await expect
        .poll(() => invite.getByTestId('free-seats').innerText())
        .toContain('0 seats free to invite to');
      const memberMail = await mailTo(memberEmail, new RegExp(`^Join ${organisationName} on `));
      await mailTo(otherEmail, new RegExp(`^Join ${organisationName} on `));

      // The member opens the link on their machine: the key is never on any page they see.
      const memberContext = await portal.newContext({ ...DESKTOP, userAgent: MEMBER_MACHINE.userAgent });
      await memberContext.addInitScript({
        content: `
          localStorage.setItem('hardware_id', ${JSON.stringify(MEMBER_MACHINE.hardwareId)});
          window.__keySeen = false;
          const look = () => {
            if (document.documentElement && document.documentElement.outerHTML.includes(${JSON.stringify(license.license_key)}))
              window.__keySeen = true;
          };
          new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
        `,
      });
      const member = await memberContext.newPage();
      watchPage(member);
      const keyNeverShown = async () => {
        expect(await member.content()).not.toContain(license.license_key);
        expect(await member.evaluate('window.__keySeen')).toBe(false);
      };
      await member.goto(invitationLink(memberMail));
      await member.getByRole('heading', { name: `Join ${organisationName}` }).waitFor();
      const signUp = member.getByRole('form', { name: 'Create your account' });
      await signUp.getByRole('textbox', { name: 'Full name' }).fill('Mina Member');
      await signUp.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
      await signUp.getByRole('textbox', { name: 'Confirm password' }).fill(STRONG_PASSWORD);
      await signUp.getByRole('button', { name: `Create account and join ${organisationName}` }).click();
      await expectPath(member, `/organisations/${organisationId}`);
      await member.getByRole('heading', { level: 1, name: organisationName }).waitFor();
      await keyNeverShown();

      // On the Licenses page the organisation's license is there, and one click activates this machine.
      await member.goto('/licenses');
      await member.getByTestId('provided-by').filter({ hasText: organisationName }).first().waitFor();
      await member.getByRole('button', { name: 'Activate on this machine: Business license' }).click();
      await member.getByText('This machine is activated').first().waitFor();
      await keyNeverShown();
      const activation = await db()
        .selectFrom('activations')
        .select(['id', 'device_name', 'deactivated_at'])
        .where('license_id', '=', license.id)
        .where('hardware_id', '=', MEMBER_MACHINE.hardwareId)
        .executeTakeFirstOrThrow();
      expect(activation.device_name).toBe(MEMBER_MACHINE.name);
      expect(activation.deactivated_at).toBeNull();
      for (const answer of await checks(license.license_key)) {
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ valid: true });
      }
      await shoot(member, 'organisation-member-licenses-desktop');

      // The owner sees the member's machine, and when it was last seen.
      await ownerPage.reload();
      const members = ownerPage.getByRole('table', { name: 'Members' });
      const memberRow = members.getByRole('row').filter({ hasText: memberEmail });
      await memberRow.getByText(MEMBER_MACHINE.name).waitFor();
      await memberRow.getByText(/^Last seen /).waitFor();
      await expect
        .poll(() => ownerPage.getByTestId('organisation-seats').first().innerText())
        .toBe('2 of 3 seats used');
      await shoot(ownerPage, 'organisation-owner-members-desktop');

      // The owner removes the member, by keyboard.
      await memberRow.getByRole('button', { name: 'Remove Mina Member' }).focus();
      await ownerPage.keyboard.press('Enter');
      const remove = ownerPage.getByRole('dialog', { name: 'Remove Mina Member?' });
      await remove.getByRole('button', { name: 'Remove member' }).click();
      await remove.waitFor({ state: 'hidden' });
      await members.getByText(memberEmail).waitFor({ state: 'detached' });

      // The member's machine is refused at its next check, saying why; their seat is free.
      for (const answer of await checks(license.license_key)) {
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({ valid: false, code: 'machine_deactivated' });
        expect(String(answer.body['message'])).toContain(`Your seat in ${organisationName} was taken back`);
      }
      const ended = await db()
        .selectFrom('activations')
        .select(['deactivated_at', 'deactivated_reason'])
        .where('id', '=', activation.id)
        .executeTakeFirstOrThrow();
      expect(ended.deactivated_reason).toBe('seat_removed');
      expect(ended.deactivated_at).not.toBeNull();
      expect(await seatsOf(organisationId)).toBe(1);
      await expect
        .poll(() => ownerPage.getByTestId('organisation-seats').first().innerText())
        .toBe('1 of 3 seats used');

      // Ten days into the period the owner buys two more seats: the price of the rest of the period is
      // shown before paying, and that is what is charged.
      portal.server.clock.advance(10 * DAY_MS);
      const later = await portal.newPage(DESKTOP);
      await signIn(later, owner.email, owner.password);
      await later.goto(`/organisations/${organisationId}`);
      await later.getByRole('button', { name: 'Buy more seats' }).click();
      const buy = later.getByRole('dialog', { name: `Buy more seats for ${organisationName}` });
      await buy.getByRole('textbox', { name: 'Seats in total' }).fill('5');
      // The price is the rest of the period's as of the moment it is asked, to the paisa: the clock
      // stands still from the quote to the purchase, so a slow machine's pace cannot move it.
      portal.server.clock.freeze();
      const quoted = later.waitForResponse((response) => response.url().includes('/seats/quote'));
      await buy.getByRole('button', { name: 'Show the price' }).click();
      const quote = (await (await quoted).json()) as {
        seats_from: number;
        seats_to: number;
        per_seat_minor: number;
        due_now_minor: number;
        next_charge_minor: number;
      };
      expect(quote).toMatchObject({
        seats_from: 3,
        seats_to: 5,
        per_seat_minor: 149_900,
        next_charge_minor: 5 * 149_900,
      });
      // Two seats for about two thirds of a month: less than two whole seats, more than half of it.
      expect(quote.due_now_minor).toBeLessThan(2 * 149_900);
      expect(quote.due_now_minor).toBeGreaterThan(149_900);
      const rupees = (minor: number) =>
        `₹${(minor / 100).toLocaleString('en-IN', { minimumFractionDigits: minor % 100 ? 2 : 0, maximumFractionDigits: 2 })}`;
      const summary = buy.getByTestId('seat-quote');
      await summary.waitFor();
      expect(await summary.innerText()).toContain(rupees(quote.due_now_minor));
      await shoot(later, 'organisation-buy-more-seats-desktop', false);
      await buy.getByRole('button', { name: `Buy and pay ${rupees(quote.due_now_minor)}` }).click();
      await buy.waitFor({ state: 'hidden' });
      await expect
        .poll(() => later.getByTestId('organisation-seats').first().innerText())
        .toBe('1 of 5 seats used');
      const charged = await db()
        .selectFrom('payments')
        .select(['amount_minor', 'status'])
        .where('user_id', '=', license.user_id)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      expect(charged).toEqual({ amount_minor: quote.due_now_minor, status: 'paid' });
      portal.server.clock.resume();
      const grown = await db()
        .selectFrom('licenses')
        .select(['seats', 'max_activations'])
        .where('id', '=', license.id)
        .executeTakeFirstOrThrow();
      expect(grown).toEqual({ seats: 5, max_activations: 10 });

      // The administrators' Organisations screen: found by a member's e-mail, its drawer on a desktop
      // and on a phone, light and dark.
      for (const [device, options] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const admin = await portal.newPage(options);
        await signIn(admin, portal.server.admin.email, portal.server.admin.password);
        await admin.goto(`/admin/organisations?${new URLSearchParams({ search: owner.email })}`);
        await admin.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
        // By keyboard: the row's View opens the drawer, Escape closes it.
        const view = admin.getByRole('button', { name: `View the organization ${organisationName}` });
        await view.focus();
        await admin.keyboard.press('Enter');
        const drawer = admin.getByRole('dialog', { name: 'Organization details' });
        await drawer.getByText('1 of 5 seats used', { exact: false }).waitFor();
        await drawer.getByText(otherEmail).waitFor();
        await drawer.getByText('Business').waitFor();
        if (device === 'phone') await noSidewaysScroll(admin);
        await shootChecked(admin, `admin-organisation-drawer-${device}`, { drawer: true });
        if (device === 'desktop') {
          // An administrator acts as the owner may, through the owner's own routes: the owner's seat
          // taken back and given again.
          await drawer.getByRole('button', { name: 'Take back seat of Olga Owner' }).click();
          const takeBack = admin.getByRole('dialog', { name: 'Take back the seat of Olga Owner?' });
          await takeBack.getByRole('button', { name: 'Take back seat' }).click();
          await takeBack.waitFor({ state: 'hidden' });
          await drawer.getByText('0 of 5 seats used', { exact: false }).waitFor();
          expect(await seatsOf(organisationId)).toBe(0);
          await drawer.getByRole('button', { name: 'Assign seat to Olga Owner' }).click();
          await drawer.getByText('1 of 5 seats used', { exact: false }).waitFor();
          expect(await seatsOf(organisationId)).toBe(1);
          // Both are security events with the administrator as their actor and the owner as the account.
          const [adminId, ownerId] = await Promise.all(
            [portal.server.admin.email, owner.email].map(
              async (email) =>
                (
                  await db()
                    .selectFrom('users')
                    .select('id')
                    .where('email', '=', email)
                    .executeTakeFirstOrThrow()
                ).id,
            ),
          );
          const events = await db()
            .selectFrom('security_events')
            .select('type')
            .where('actor_id', '=', adminId!)
            .where('user_id', '=', ownerId!)
            .orderBy('created_at')
            .execute();
          expect(events.map((event) => event.type)).toEqual([
            'organisation_seat_unassigned',
            'organisation_seat_assigned',
          ]);
        }
        await admin.keyboard.press('Escape');
        await drawer.waitFor({ state: 'hidden' });
        if (device === 'phone') await noSidewaysScroll(admin);
        // The seat changes' toasts float over the navigation's last links (the list grew with
        // Usage) until they close: axe cannot judge text under them, so the screen is taken after.
        await expect
          .poll(() => admin.locator('.mantine-Notification-root').count(), { timeout: 30_000 })
          .toBe(0);
        await shootChecked(admin, `admin-organisations-${device}`);
      }
    });
  },
  { timeout: 300_000 },
);
