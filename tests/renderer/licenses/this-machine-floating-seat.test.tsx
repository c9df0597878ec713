import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../src/renderer/src/app/providers';
import { makeStore } from '../../../src/renderer/src/app/store';
import { ThisMachineFloatingSeat } from '../../../src/renderer/src/features/licenses/components/this-machine-floating-seat';
import type { DesktopBridge, FloatingSeatState } from '../../../src/shared/bridge';
import { fakeUpdateBridge } from '../support/fake-update-bridge';
import { machineTrialBridgeMethods } from '../support/fake-machine-trial-bridge';
import { tabServices } from '../support/services';

const SLOW = { timeout: 8000 };

const seat = (changes: Partial<FloatingSeatState>): FloatingSeatState => ({
  status: 'held',
  message: 'This machine holds one of 2 floating seats (1 in use).',
  seats: 2,
  in_use: 1,
  held_until: '2026-12-05T12:00:00.000Z',
  borrowed_until: null,
  holders: [],
  retry_at: null,
  max_borrow_days: 7,
  ...changes,
});

afterEach(() => {
  delete (window as { desktop?: DesktopBridge }).desktop;
});

/** A desktop bridge whose floating half answers as main's floating seat would, recording the calls. */
function renderOnDesktop(initial: FloatingSeatState) {
  const calls: { method: string; args: unknown[] }[] = [];
  let current = initial;
  const bridge: DesktopBridge = {
    getHardwareId: async () => 'a'.repeat(64),
    hasSession: async () => false,
    forgetSession: async () => undefined,
    checkLicenseStatus: async () => ({ valid: true, status: 'active', message: 'Active' }),
    ...machineTrialBridgeMethods,
    getLicenseKey: async () => null,
    setLicenseKey: async () => undefined,
    getAppInfo: async () => ({
      version: '1.0.0',
      platform: 'linux',
      serverUrl: 'https://portal.example.com',
      tokenStorage: 'os-keychain',
    }),
    ...fakeUpdateBridge().bridge,
    writeOfflineActivationRequest: async () => ({ file_name: 'x.json', contents: '{}' }),
    importOfflineLicenseFile: async () => ({ imported: false, message: 'No' }),
    signOutOfflineLicense: async () => null,
    floating: {
      state: async () => {
        calls.push({ method: 'state', args: [] });
        return current;
      },
      borrow: async (days) => {
        calls.push({ method: 'borrow', args: [days] });
        current = seat({
          borrowed_until: '2026-12-08T12:00:00.000Z',
          message: 'This machine borrowed a seat until 2026-12-08T12:00:00.000Z: it runs offline until then.',
        });
        return current;
      },
      returnBorrowed: async () => {
        calls.push({ method: 'returnBorrowed', args: [] });
        current = seat({});
        return current;
      },
    },
  };
  const { services } = tabServices('http://127.0.0.1:9', { bridge });
  const store = makeStore({ services });
  render(
    <AppProviders store={store}>
      <ThisMachineFloatingSeat licenseId="L1" />
    </AppProviders>,
  );
  return { calls, user: userEvent.setup() };
}

describe('this machine’s floating seat (desktop)', () => {
  it('borrows for the days chosen through the bridge, then returns the borrowed seat', async () => {
    const { calls, user } = renderOnDesktop(seat({}));
    await screen.findByText(/holds one of 2 floating seats/, {}, SLOW);
    await user.click(screen.getByRole('button', { name: 'Borrow for offline use…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Borrow this seat for offline use' });
    const days = within(dialog).getByRole('textbox', { name: 'Days' });
    await user.clear(days);
    await user.type(days, '9');
    expect(within(dialog).getByRole('button', { name: 'Borrow' }).hasAttribute('disabled')).toBe(true);
    await user.clear(days);
    await user.type(days, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Borrow' }));
    await screen.findByRole('button', { name: 'Return borrowed seat' }, SLOW);
    expect(calls.filter((call) => call.method === 'borrow')).toEqual([{ method: 'borrow', args: [3] }]);
    await user.click(screen.getByRole('button', { name: 'Return borrowed seat' }));
    await screen.findByRole('button', { name: 'Borrow for offline use…' }, SLOW);
    expect(calls.some((call) => call.method === 'returnBorrowed')).toBe(true);
  });

  it('says who holds the seats when all are out, offering no borrow; shows nothing without a floating license', async () => {
    renderOnDesktop(
      seat({ status: 'full', message: 'All 2 floating seats are in use.', in_use: 2, max_borrow_days: null }),
    );
    await screen.findByText('All 2 floating seats are in use.', {}, SLOW);
    expect(screen.queryByRole('button', { name: 'Borrow for offline use…' })).toBeNull();
  });

  it('shows nothing for a node-locked license', async () => {
    const { calls } = renderOnDesktop(seat({ status: 'not_floating', message: 'No floating license' }));
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(screen.queryByTestId('this-machine-floating-seat')).toBeNull();
  });
});
