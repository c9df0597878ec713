import { describe, expect, it } from 'vitest';
import { describeThisDevice } from '../../src/renderer/src/features/licenses/this-device';
import type { Platform } from '../../src/renderer/src/lib/platform';

const components = { machine_id: 'a'.repeat(64), disk: 'b'.repeat(64) };

const desktop = (info: object) => ({ kind: 'desktop', getAppInfo: async () => info }) as unknown as Platform;

describe('this device as an activation names it', () => {
  it('the desktop sends the hashed fingerprint components main gave it with the app info', async () => {
    expect(await describeThisDevice(desktop({ version: '2.1.0', platform: 'linux', components }))).toEqual({
      device_name: 'Desktop app on Linux',
      platform: 'Linux',
      app_version: '2.1.0',
      components,
    });
  });

  it('an older desktop (no components in its app info) and a browser send none', async () => {
    expect(await describeThisDevice(desktop({ version: '2.1.0', platform: 'linux' }))).not.toHaveProperty(
      'components',
    );
    expect(await describeThisDevice({ kind: 'web' } as unknown as Platform)).not.toHaveProperty('components');
  });
});
