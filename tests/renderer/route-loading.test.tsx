import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeApi } from './support/fake-api';
import { renderApp, servicesFor } from './support/render-app';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

describe('Lazy screens', () => {
  it("a screen not loaded yet shows 'Loading...' until it arrives", async () => {
    const { router } = renderApp(await servicesFor(api, 'user'), '/support');
    expect(await screen.findByText('Loading...', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Loading...')).toBeNull(), { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/support');
  });
});
