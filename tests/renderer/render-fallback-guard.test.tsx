import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderErrorMessages } from '../../src/shared/messages';
import { FakeApi } from './support/fake-api';
import { renderApp, servicesFor } from './support/render-app';
import { allowRenderFallback, checkNoRenderFallback } from './support/render-failures';

// One screen crashes; the rest of the portal is the real one.
vi.mock('../../src/renderer/src/features/users/pages/support-page', () => ({
  default: () => {
    throw new Error('render failure');
  },
}));

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await api.close();
});

describe('the renderer setup fails a test whose page crashes into the error fallback', () => {
  it('a crash the test did not expect fails it, though the test itself asserted nothing about it', async () => {
    renderApp(await servicesFor(api, 'user'), '/support');
    await screen.findByText(renderErrorMessages.title, {}, { timeout: 5000 });
    expect(() => checkNoRenderFallback()).toThrow(/crashed into the error fallback/);
    // What the setup would have thrown after this test is shown above; let it end cleanly.
    allowRenderFallback();
  });

  it('a test of the fallback opts in with allowRenderFallback()', async () => {
    allowRenderFallback();
    renderApp(await servicesFor(api, 'user'), '/support');
    await screen.findByText(renderErrorMessages.title, {}, { timeout: 5000 });
    expect(() => checkNoRenderFallback()).not.toThrow();
  });

  it('a page that renders leaves the test alone', async () => {
    renderApp(await servicesFor(api, 'user'), '/profile');
    await screen.findByRole('button', { name: /^Account menu for / }, { timeout: 5000 });
    expect(() => checkNoRenderFallback()).not.toThrow();
  });
});
