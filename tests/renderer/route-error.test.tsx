import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderErrorMessages } from '../../src/shared/messages';
import { FakeApi } from './support/fake-api';
import { allowRenderFallback } from './support/render-failures';
import { renderApp, servicesFor } from './support/render-app';

// The screen under test fails to render; everything around it is the real portal.
vi.mock('../../src/renderer/src/features/users/pages/support-page', () => ({
  default: () => {
    throw new Error('render failure');
  },
}));

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  allowRenderFallback();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await api.close();
});

describe('Error fallback', () => {
  it("a page that fails to render shows 'Something went wrong', the text and 'Refresh Page', which reloads", async () => {
    const reload = vi.fn();
    renderApp(await servicesFor(api, 'user'), '/support', reload);
    expect(await screen.findByText(renderErrorMessages.title, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(renderErrorMessages.text)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: renderErrorMessages.refreshButton }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('the fallback is per route: other screens still render', async () => {
    const { router } = renderApp(await servicesFor(api, 'user'), '/support');
    await screen.findByText(renderErrorMessages.title, {}, { timeout: 5000 });
    await router.navigate('/profile');
    await vi.waitFor(() => expect(screen.queryByText(renderErrorMessages.title)).toBeNull(), {
      timeout: 5000,
    });
  });
});
