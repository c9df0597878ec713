import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopBridge } from '../../../src/shared/bridge';
import { FakeApi } from '../support/fake-api';
import { fakeUpdateBridge } from '../support/fake-update-bridge';
import { renderApp, servicesFor } from '../support/render-app';
import { tabServices } from '../support/services';
import { machineTrialBridgeMethods } from '../support/fake-machine-trial-bridge';

const SLOW = { timeout: 8000 };
const KEY = 'ABCDE-FGHJK-MNPQR-STVWX-YZ234';

let api: FakeApi;
let downloads: { name: string; contents: string }[];

beforeEach(async () => {
  api = await new FakeApi().start();
  downloads = [];
  let pending: Blob | undefined;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    pending = blob as Blob;
    return 'blob:offline-file';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const name = this.download;
    void pending?.text().then((contents) => downloads.push({ name, contents }));
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  delete (window as { desktop?: DesktopBridge }).desktop;
  await api.close();
});

/** A desktop bridge whose activation-by-file half records what the page asked main for. */
function desktopBridge() {
  const calls = { requests: [] as string[], imports: [] as string[], signOuts: 0 };
  const bridge: DesktopBridge = {
    getHardwareId: async () => 'a'.repeat(64),
    hasSession: async () => false,
    forgetSession: async () => undefined,
    checkLicenseStatus: async () => ({ valid: false, status: 'not_configured', message: 'Not configured' }),
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
    async writeOfflineActivationRequest(key) {
      calls.requests.push(key);
      return { file_name: 'Lab-PC.activation-request.json', contents: '{"request":true}\n' };
    },
    async importOfflineLicenseFile(contents) {
      calls.imports.push(contents);
      return contents.includes('lease')
        ? { imported: true, message: 'Activated by license file, valid offline for 365 more days.' }
        : { imported: false, message: 'This license file is for another machine.' };
    },
    async signOutOfflineLicense() {
      calls.signOuts += 1;
      return { file_name: 'Lab-PC.signed-out.json', contents: '{"proof":true}\n' };
    },
  };
  return { bridge, calls };
}

async function openOnDesktop() {
  const desktop = desktopBridge();
  (window as { desktop?: DesktopBridge }).desktop = desktop.bridge;
  const { services } = tabServices(api.baseURL, { bridge: desktop.bridge });
  renderApp(services, '/offline-activation/this-machine');
  await screen.findByRole(
    'heading',
    { level: 1, name: 'Activate this machine by file' },
    { timeout: 10_000 },
  );
  return { ...desktop, user: userEvent.setup() };
}

describe('this machine by file (the desktop app, signed out)', () => {
  it('saves the request for the key, imports the license file, and signs out saving the proof', async () => {
    const { calls, user } = await openOnDesktop();
    const request = within(screen.getByRole('region', { name: '1. Save an activation request' }));
    await user.type(request.getByRole('textbox', { name: 'License key' }), KEY);
    await user.keyboard('{Enter}');
    expect((await request.findByRole('status', {}, SLOW)).textContent).toContain(
      'Saved as Lab-PC.activation-request.json',
    );
    expect(calls.requests).toEqual([KEY]);
    await waitFor(() =>
      expect(downloads).toEqual([{ name: 'Lab-PC.activation-request.json', contents: '{"request":true}\n' }]),
    );

    const importing = screen.getByRole('region', { name: '2. Import the license file' });
    const input = importing.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(
      input,
      new File(['{"lease":"x"}'], 'Lab-PC.license.json', { type: 'application/json' }),
    );
    expect((await within(importing).findByRole('status', {}, SLOW)).textContent).toContain(
      'valid offline for 365 more days',
    );
    expect(calls.imports).toEqual(['{"lease":"x"}']);

    const signOut = within(screen.getByRole('region', { name: '3. Sign out by file' }));
    await user.click(signOut.getByRole('button', { name: 'Sign out and save the proof' }));
    expect((await signOut.findByRole('status', {}, SLOW)).textContent).toContain('Lab-PC.signed-out.json');
    await waitFor(() => expect(downloads.map((file) => file.name)).toContain('Lab-PC.signed-out.json'));
    await user.click(signOut.getByRole('button', { name: 'Save the proof again' }));
    await waitFor(() =>
      expect(downloads.filter((file) => file.name === 'Lab-PC.signed-out.json')).toHaveLength(2),
    );
    expect(calls.signOuts).toBe(1);
  });

  it("shows main's refusal of a license file", async () => {
    const { user } = await openOnDesktop();
    const importing = screen.getByRole('region', { name: '2. Import the license file' });
    const input = importing.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['{"other":1}'], 'other.license.json', { type: 'application/json' }));
    expect((await within(importing).findByRole('alert', {}, SLOW)).textContent).toContain(
      'This license file is for another machine.',
    );
  });

  it('on the web it points to the portal page instead', async () => {
    renderApp(await servicesFor(api, 'anonymous'), '/offline-activation/this-machine');
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Activate this machine by file' },
      { timeout: 10_000 },
    );
    expect(screen.getByRole('link', { name: 'Offline activation' }).getAttribute('href')).toBe(
      '/offline-activation',
    );
    expect(screen.queryByRole('region', { name: '1. Save an activation request' })).toBeNull();
  });

  it('the sign-in page links it in the desktop app only', async () => {
    const link = { name: 'No network on this computer? Activate it by file' };
    renderApp(await servicesFor(api, 'anonymous'), '/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' }, { timeout: 10_000 });
    expect(screen.queryByRole('link', link)).toBeNull();
  });

  it('the desktop app’s sign-in page links it', async () => {
    const desktop = desktopBridge();
    (window as { desktop?: DesktopBridge }).desktop = desktop.bridge;
    renderApp(tabServices(api.baseURL, { bridge: desktop.bridge }).services, '/login');
    const link = await screen.findByRole(
      'link',
      { name: 'No network on this computer? Activate it by file' },
      { timeout: 10_000 },
    );
    expect(link.getAttribute('href')).toBe('/offline-activation/this-machine');
  });
});
