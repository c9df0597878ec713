import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeApi, problem } from '../support/fake-api';
import {
  activation,
  bodyOf,
  LICENSE_ID,
  license,
  openAsUser,
  SLOW,
  startLicenseApi,
} from './support-licenses/license-fixtures';

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
  api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
    json: {
      license_id: LICENSE_ID,
      usage_info: { features: [] },
      overage: [],
      packs: [],
      history: [],
      currency: 'INR',
    },
  }));
  api.on(`GET /licenses/${LICENSE_ID}/download`, () => ({ json: { license_id: LICENSE_ID, releases: [] } }));
  api.on(`GET /licenses/${LICENSE_ID}`, () => ({
    json: license({ activations_used: 1, activations: [activation({ device_name: 'Chrome on Linux' })] }),
  }));
});
afterEach(() => api.close());

const PATH = `/licenses/${LICENSE_ID}`;
const RENAME = `PATCH /licenses/${LICENSE_ID}/activations/act-1`;

describe('/licenses/{licenseId}: naming a machine', () => {
  it('Rename opens a dialog on its field; the trimmed name is sent and shown, the device’s name under it', async () => {
    api.on(RENAME, () => ({
      json: license({
        activations_used: 1,
        activations: [activation({ device_name: 'Chrome on Linux', label: 'Office laptop' })],
      }),
    }));
    await openAsUser(api, PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rename Chrome on Linux' }, SLOW));
    const dialog = within(await screen.findByRole('dialog', { name: 'Rename Chrome on Linux' }, SLOW));
    const field = dialog.getByRole('textbox', { name: 'Machine name' });
    await waitFor(() => expect(document.activeElement).toBe(field), SLOW);
    await user.type(field, '  Office laptop  {Enter}');

    expect(await screen.findByText('Machine renamed', undefined, SLOW)).toBeTruthy();
    expect(bodyOf(api, RENAME)).toEqual({ label: 'Office laptop' });
    const machines = within(screen.getByRole('table', { name: 'Machines' }));
    expect(machines.getByTestId('machine-name').textContent).toBe('Office laptop');
    expect(machines.getByTestId('machine-reported-name').textContent).toBe('Chrome on Linux');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
  });

  it('a name with a control character or over 64 characters is refused before anything is sent', async () => {
    await openAsUser(api, PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rename Chrome on Linux' }, SLOW));
    const dialog = within(await screen.findByRole('dialog', undefined, SLOW));
    const field = dialog.getByRole('textbox', { name: 'Machine name' });
    await user.click(field);
    await user.paste('Tab\there');
    expect((field as HTMLInputElement).value).toBe('Tab\there');
    await user.click(dialog.getByRole('button', { name: 'Save name' }));
    expect(
      await dialog.findByText('A machine name must not contain control characters', undefined, SLOW),
    ).toBeTruthy();
    // The field stops at 64 characters.
    await user.clear(field);
    await user.type(field, 'x'.repeat(70));
    expect((field as HTMLInputElement).value).toHaveLength(64);
    expect(api.calls(RENAME)).toHaveLength(0);
  });

  it('the server’s refusal shows in the dialog, which stays open', async () => {
    api.on(RENAME, () =>
      problem(404, 'This machine is not activated on this license', 'activation_not_found'),
    );
    await openAsUser(api, PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rename Chrome on Linux' }, SLOW));
    const dialog = within(await screen.findByRole('dialog', undefined, SLOW));
    await user.type(dialog.getByRole('textbox', { name: 'Machine name' }), 'Spare{Enter}');
    expect(
      await dialog.findByText('This machine is not activated on this license', undefined, SLOW),
    ).toBeTruthy();
    expect(dialog.getByText('Could not rename the machine')).toBeTruthy();
  });
});
