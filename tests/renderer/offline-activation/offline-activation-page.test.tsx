import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OfflineActivationResult } from '../../../src/shared/api/offline-activation';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor, type Visitor } from '../support/render-app';

const SLOW = { timeout: 8000 };
const NONCE = 'n'.repeat(43);
const request = {
  format: 'desktop-ai-assistant.offline-activation-request',
  version: 1,
  license_key: 'ABCDE-FGHJK-MNPQR-STVWX-YZ234',
  hardware_id: 'hw-lab-0123456789',
  device_name: 'Lab PC',
  nonce: NONCE,
  created_at: '2026-11-27T10:00:00.000Z',
  installation_key: { kty: 'OKP', crv: 'Ed25519', x: 'x'.repeat(43) },
};
const answer: OfflineActivationResult = {
  license_file: {
    format: 'desktop-ai-assistant.offline-license',
    version: 1,
    license_id: '00000000-0000-4000-8000-000000000001',
    hardware_id: request.hardware_id,
    nonce: NONCE,
    lease: 'header.payload.signature',
    expires_at: '2027-11-27T10:00:00.000Z',
  },
  file_name: 'Lab-PC.license.json',
  created: true,
  device_name: 'Lab PC',
  message: 'The machine is activated. Carry the license file to it and import it in the app.',
};
const proof = {
  format: 'desktop-ai-assistant.offline-deactivation-proof',
  version: 1,
  license_id: answer.license_file.license_id,
  hardware_id: request.hardware_id,
  nonce: NONCE,
  lease_id: '00000000-0000-4000-8000-000000000002',
  deactivated_at: '2026-12-01T10:00:00.000Z',
  signature: 's'.repeat(86),
};
const fileOf = (name: string, value: unknown) =>
  new File([typeof value === 'string' ? value : JSON.stringify(value)], name, { type: 'application/json' });

let api: FakeApi;
let downloads: { name: string; url: string }[];

beforeEach(async () => {
  api = await new FakeApi().start();
  downloads = [];
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:license-file');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, url: this.href });
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await api.close();
});

/** The file input behind the labelled button: what the browser's file chooser fills in. */
function fileInput(region: string, label: string): HTMLInputElement {
  const section = screen.getByRole('region', { name: region });
  expect(within(section).getByRole('button', { name: new RegExp(label) })).toBeTruthy();
  return section.querySelector('input[type="file"]') as HTMLInputElement;
}

async function open(visitor: Visitor, path: string) {
  renderApp(await servicesFor(api, visitor), path);
  await screen.findByRole('heading', { level: 1, name: 'Offline activation' }, { timeout: 10_000 });
  return userEvent.setup();
}

describe('offline activation page', () => {
  it('uploads the request file as the app wrote it and offers the license file for download', async () => {
    api.on('POST /licenses/offline-activations', () => ({ status: 201, json: answer }));
    const user = await open('user', '/offline-activation');
    const section = within(screen.getByRole('region', { name: 'Activate a machine' }));
    await user.upload(
      fileInput('Activate a machine', 'Activation request file'),
      fileOf('Lab-PC.activation-request.json', request),
    );

    const done = await section.findByRole('status', {}, SLOW);
    expect(done.textContent).toContain('Lab PC can work offline until');
    expect(JSON.parse(api.calls('POST /licenses/offline-activations')[0]?.body ?? '')).toEqual(request);
    await user.click(within(done).getByRole('button', { name: 'Download license file' }));
    expect(downloads).toEqual([{ name: 'Lab-PC.license.json', url: 'blob:license-file' }]);
  });

  it("shows the server's refusal, and refuses a file that is not JSON without sending it", async () => {
    api.on('POST /licenses/offline-activations', () => ({
      ...problem(
        409,
        'This license is already active on 3 of 3 machines allowed (seat limit 3).',
        'activation_limit_reached',
      ),
    }));
    const user = await open('user', '/offline-activation');
    const section = within(screen.getByRole('region', { name: 'Activate a machine' }));
    const input = fileInput('Activate a machine', 'Activation request file');
    await user.upload(input, fileOf('broken.json', '{"format": "desktop'));
    expect((await section.findByRole('alert', {}, SLOW)).textContent).toContain(
      'broken.json is not a file the app wrote',
    );
    expect(api.calls('POST /licenses/offline-activations')).toHaveLength(0);

    await user.upload(input, fileOf('Lab-PC.activation-request.json', request));
    await waitFor(() => expect(section.getByRole('alert').textContent).toContain('seat limit 3'), SLOW);
  });

  it("uploads a signed-out proof and says the machine's seat is free", async () => {
    api.on('POST /licenses/offline-deactivations', () => ({
      json: {
        license_id: proof.license_id,
        hardware_id: proof.hardware_id,
        device_name: 'Lab PC',
        deactivated_at: '2026-12-01T10:05:00.000Z',
        message: 'The machine is signed out and its seat is free.',
      },
    }));
    const user = await open('user', '/offline-activation');
    const section = within(screen.getByRole('region', { name: 'Give a machine’s seat back' }));
    await user.upload(
      fileInput('Give a machine’s seat back', 'Signed-out proof'),
      fileOf('Lab-PC.signed-out.json', proof),
    );
    expect((await section.findByRole('status', {}, SLOW)).textContent).toContain(
      'Lab PC no longer holds a seat',
    );
    expect(JSON.parse(api.calls('POST /licenses/offline-deactivations')[0]?.body ?? '')).toEqual(proof);
  });

  it("an administrator's uploads go to the admin routes, for any license", async () => {
    api.on('POST /admin/offline-activations', () => ({ status: 201, json: answer }));
    const user = await open('admin', '/admin/offline-activation');
    const section = within(screen.getByRole('region', { name: 'Activate a machine' }));
    await user.upload(
      fileInput('Activate a machine', 'Activation request file'),
      fileOf('Lab-PC.activation-request.json', request),
    );
    await section.findByRole('status', {}, SLOW);
    expect(api.calls('POST /admin/offline-activations')).toHaveLength(1);
    expect(api.calls('POST /licenses/offline-activations')).toHaveLength(0);
  });
});
