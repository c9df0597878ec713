import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemberUsage } from '../../../src/shared/api/member-usage';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { BEA_ID, makeInvitation, makeOrganisation, MEMBERS, ORG_ID } from './fixtures';

const BASE = `/organisations/${ORG_ID}`;

const chat = (used: number, cap: number | null) => ({
  feature_id: 'f-chat',
  key: 'ai_chat',
  name: 'AI chat',
  unit: 'messages',
  period: 'month' as const,
  period_start: '2026-11-01T00:00:00.000Z',
  used,
  cap,
  remaining: cap === null ? null : Math.max(0, cap - used),
});

const usageOf = (member: (typeof MEMBERS)[number], used: number, cap: number | null): MemberUsage => ({
  user_id: member.user_id,
  email: member.email,
  full_name: member.full_name,
  role: member.role,
  features: [chat(used, cap)],
});

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /organisations', () => ({ json: [makeOrganisation()] }));
  api.on(`GET ${BASE}`, () => ({ json: makeOrganisation() }));
  api.on(`GET ${BASE}/members`, () => ({ json: MEMBERS }));
  api.on(`GET ${BASE}/invitations`, () => ({ json: [makeInvitation()] }));
  api.on(`GET ${BASE}/usage`, () => ({
    json: {
      organisation_id: ORG_ID,
      license_id: 'lic-acme',
      pool: [],
      members: MEMBERS.map((member, index) =>
        usageOf(member, [12, 340, 0][index] ?? 0, member.user_id === BEA_ID ? 500 : null),
      ),
    },
  }));
});
afterEach(async () => {
  await api.close();
});

const row = (name: string) =>
  within(screen.getByRole('rowheader', { name: new RegExp(name) }).closest('tr')!);

describe('organisation page: members’ usage and caps', () => {
  it('shows each member’s use against their cap and saves a new cap from the keyboard; a refusal stays in the dialog', async () => {
    let refuse = true;
    api.on(`PUT ${BASE}/members/${BEA_ID}/usage-caps`, () =>
      refuse
        ? problem(400, 'cap must be at most 1000000000', 'validation_error')
        : { json: usageOf(MEMBERS[1]!, 340, 800) },
    );
    const services = await servicesFor(api, 'user');
    renderApp(services, BASE);
    await screen.findByRole('table', { name: 'Members' });
    await waitFor(() => expect(row('Bea Jones').getByText(/AI chat: 340 of 500/)).toBeTruthy());
    expect(row('Ada').getByText(/no cap/)).toBeTruthy();

    const user = userEvent.setup();
    row('Bea Jones').getByRole('button', { name: 'Set usage caps of Bea Jones' }).focus();
    await user.keyboard('{Enter}');
    const dialog = within(await screen.findByRole('dialog', { name: 'Usage caps of Bea Jones' }));
    const field = dialog.getByRole('textbox', { name: /AI chat/ });
    expect((field as HTMLInputElement).value).toBe('500');
    await user.clear(field);
    await user.type(field, '800');
    await user.click(dialog.getByRole('button', { name: 'Save caps' }));
    expect((await dialog.findByRole('alert')).textContent).toContain('cap must be at most');

    refuse = false;
    await user.click(dialog.getByRole('button', { name: 'Save caps' }));
    await waitFor(() =>
      expect(
        JSON.parse(api.calls(`PUT ${BASE}/members/${BEA_ID}/usage-caps`).at(-1)?.body ?? 'null'),
      ).toEqual({
        caps: [{ feature: 'f-chat', cap: 800 }],
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Usage caps of Bea Jones' })).toBeNull());
  });
});
