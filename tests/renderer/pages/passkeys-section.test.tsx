import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { bodyOf, SLOW } from './support-licenses/license-fixtures';

const PASSKEY = {
  id: 'pk-1',
  name: 'Work laptop',
  created_at: '2026-11-01T09:00:00.000Z',
  last_used_at: null,
  device_type: 'singleDevice',
  backed_up: false,
};

let api: FakeApi;
let passkeys = [PASSKEY];
beforeEach(async () => {
  passkeys = [PASSKEY];
  api = await new FakeApi().start();
  api.on('GET /users/me/passkeys', () => ({ json: { data: passkeys } }));
  api.on('GET /users/me/two-factor', () => ({
    json: {
      totp_enabled: false,
      totp_pending: false,
      recovery_codes_left: 0,
      passkeys: passkeys.length,
      required: false,
    },
  }));
  api.on('GET /users/me/api-tokens', () => ({ json: { data: [] } }));
});
afterEach(() => api.close());

async function openSecurityPage() {
  renderApp(await servicesFor(api, 'user'), '/profile/security');
  return within(await screen.findByRole('region', { name: 'Passkeys' }, SLOW));
}

describe('/profile/security: passkeys', () => {
  it('lists each passkey with its name, when it was added, and that it was never used', async () => {
    const section = await openSecurityPage();
    const item = within(await section.findByRole('listitem', { name: 'Work laptop' }, SLOW));
    expect(item.getByText(/never used/)).toBeTruthy();
    expect(item.getByRole('button', { name: 'Rename Work laptop' })).toBeTruthy();
    expect(section.getByRole('button', { name: 'Add a passkey' })).toBeTruthy();
  });

  it('renames with the trimmed name, and refuses an empty one before sending', async () => {
    api.on('PATCH /users/me/passkeys/pk-1', () => ({ json: { ...PASSKEY, name: 'Phone' } }));
    const section = await openSecurityPage();
    const user = userEvent.setup();
    await user.click(await section.findByRole('button', { name: 'Rename Work laptop' }, SLOW));
    const dialog = within(await screen.findByRole('dialog', { name: 'Rename passkey' }, SLOW));
    const field = dialog.getByRole('textbox', { name: 'Name' });
    await user.clear(field);
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText(/Name the passkey/, undefined, SLOW)).toBeTruthy();
    expect(api.calls('PATCH /users/me/passkeys/pk-1')).toHaveLength(0);

    await user.type(field, '  Phone  {Enter}');
    await waitFor(() => expect(api.calls('PATCH /users/me/passkeys/pk-1')).toHaveLength(1), SLOW);
    expect(bodyOf(api, 'PATCH /users/me/passkeys/pk-1')).toEqual({ name: 'Phone' });
  });

  it('removes after a confirmation; a refusal stays in the dialog', async () => {
    let refuse = true;
    api.on('DELETE /users/me/passkeys/pk-1', () => {
      if (refuse) return problem(404, 'No such passkey', 'passkey_not_found');
      passkeys = [];
      return { status: 204 };
    });
    const section = await openSecurityPage();
    const user = userEvent.setup();
    await user.click(await section.findByRole('button', { name: 'Remove Work laptop' }, SLOW));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove Work laptop?' }, SLOW));
    await user.click(dialog.getByRole('button', { name: 'Remove passkey' }));
    expect(await dialog.findByText('No such passkey', undefined, SLOW)).toBeTruthy();

    refuse = false;
    await user.click(dialog.getByRole('button', { name: 'Remove passkey' }));
    expect(await section.findByText(/No passkeys yet/, undefined, SLOW)).toBeTruthy();
  });
});
