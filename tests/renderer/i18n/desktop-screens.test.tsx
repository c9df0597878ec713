import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../src/renderer/src/app/providers';
import { makeStore } from '../../../src/renderer/src/app/store';
import { DesktopUpdatesCard } from '../../../src/renderer/src/features/distribution/components/desktop-updates-card';
import { LicenseTroubleshooter } from '../../../src/renderer/src/features/licenses/components/license-troubleshooter';
import { ThisMachineFloatingSeat } from '../../../src/renderer/src/features/licenses/components/this-machine-floating-seat';
import { type ShownLanguage, showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import type { DesktopBridge, FloatingSeatState, UpdateState } from '../../../src/shared/bridge';
import { fakeUpdateBridge } from '../support/fake-update-bridge';
import { machineTrialBridgeMethods } from '../support/fake-machine-trial-bridge';
import { offlineBridgeMethods } from '../support/fake-offline-bridge';
import { tabServices } from '../support/services';

/*
 * Screens that show what the desktop shell's main process says (in English, over the bridge), in
 * German and in Hindi: the words are the language's, and main's English is nowhere on screen.
 */

const SLOW = { timeout: 10_000 };

const heldSeat: FloatingSeatState = {
  status: 'held',
  message: 'This machine holds one of 2 floating seats (1 in use).',
  seats: 2,
  in_use: 1,
  held_until: '2026-12-05T12:00:00.000Z',
  borrowed_until: null,
  holders: [],
  retry_at: null,
  max_borrow_days: 7,
};

afterEach(async () => {
  delete (window as { desktop?: DesktopBridge }).desktop;
  await showLanguage('en');
});

/** A desktop bridge as the preload exposes it, with main's floating seat and update state. */
function desktopBridge(seat: FloatingSeatState, update: UpdateState): DesktopBridge {
  return {
    getHardwareId: async () => 'a'.repeat(64),
    hasSession: async () => false,
    forgetSession: async () => undefined,
    checkLicenseStatus: async () => ({ valid: true, status: 'active', message: seat.message }),
    getLicenseKey: async () => null,
    setLicenseKey: async () => undefined,
    getAppInfo: async () => ({
      version: '1.0.0',
      platform: 'linux',
      serverUrl: 'https://portal.example.com',
      tokenStorage: 'os-keychain',
    }),
    ...fakeUpdateBridge(update).bridge,
    ...offlineBridgeMethods,
    ...machineTrialBridgeMethods,
    floating: { state: async () => seat, borrow: async () => seat, returnBorrowed: async () => seat },
  };
}

async function renderInLanguage(language: ShownLanguage, ui: React.ReactNode, bridge?: DesktopBridge) {
  await showLanguage(language);
  const { services } = tabServices('http://127.0.0.1:9', bridge ? { bridge } : {});
  render(
    <AppProviders store={makeStore({ services })}>
      <MemoryRouter>{ui}</MemoryRouter>
    </AppProviders>,
  );
}

describe('the desktop app’s own messages', () => {
  it('in German: the floating seat and the app updates', async () => {
    const update: UpdateState = {
      status: 'error',
      message:
        'Could not check for updates: the update server could not be reached (ENOTFOUND). It will be tried again later.',
    };
    await renderInLanguage(
      'de',
      <>
        <ThisMachineFloatingSeat licenseId="L1" />
        <DesktopUpdatesCard />
      </>,
      desktopBridge(heldSeat, update),
    );
    expect(
      await screen.findByText('Dieses Gerät belegt einen von 2 Floating-Plätzen (1 belegt).', {}, SLOW),
    ).toBeTruthy();
    expect(
      await screen.findByText(
        'Es konnte nicht nach Updates gesucht werden: der Update-Server war nicht erreichbar (ENOTFOUND). Es wird später erneut versucht.',
        {},
        SLOW,
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/floating seats/)).toBeNull();
    expect(screen.queryByText(/Could not check for updates/)).toBeNull();
  });

  it('in Hindi: a borrowed seat and a note on why updates are not checked', async () => {
    const borrowed: FloatingSeatState = {
      ...heldSeat,
      message: 'This machine borrowed a seat until 2026-12-08T12:00:00.000Z: it runs offline until then.',
      borrowed_until: '2026-12-08T12:00:00.000Z',
    };
    const update: UpdateState = {
      status: 'idle',
      checked_at: null,
      note: 'Updates are checked once a license is activated on this machine.',
    };
    await renderInLanguage(
      'hi',
      <>
        <ThisMachineFloatingSeat licenseId="L1" />
        <DesktopUpdatesCard />
      </>,
      desktopBridge(borrowed, update),
    );
    expect(
      await screen.findByText(/^इस मशीन ने .*2026.* तक एक सीट उधार ली है: तब तक यह ऑफ़लाइन चलती है।$/, {}, SLOW),
    ).toBeTruthy();
    expect(await screen.findByText('इस मशीन पर लाइसेंस सक्रिय होते ही अपडेट जाँचे जाते हैं।', {}, SLOW)).toBeTruthy();
    expect(screen.queryByText(/borrowed a seat/)).toBeNull();
    // Main's ISO timestamp is written as a date of the language shown.
    expect(screen.queryByText(/2026-12-08T/)).toBeNull();
    expect(screen.queryByText(/Updates are checked/)).toBeNull();
  });

  it('in Hindi: a license check offline, without a lease to go by', async () => {
    await renderInLanguage(
      'hi',
      <LicenseTroubleshooter
        result={{
          valid: false,
          status: 'error',
          message:
            'Offline: the license server did not answer in time, and this machine has no offline license yet. Connect to the internet to check the license.',
        }}
        checking={false}
        onCheck={() => {}}
        kind="desktop"
      />,
    );
    expect(
      await screen.findByText(
        'ऑफ़लाइन: लाइसेंस सर्वर ने समय पर जवाब नहीं दिया, और इस मशीन के पास अभी कोई ऑफ़लाइन लाइसेंस नहीं है। लाइसेंस जाँचने के लिए इंटरनेट से कनेक्ट करें।',
        {},
        SLOW,
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/Connect to the internet/)).toBeNull();
  });
});
