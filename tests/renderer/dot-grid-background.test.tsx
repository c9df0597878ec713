import { readFileSync } from 'node:fs';
import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeApi } from './support/fake-api';
import { renderApp, servicesFor } from './support/render-app';

/* The fixed full-screen dot grid behind every layout. */

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /plans/public', () => ({ json: [] }));
});
afterEach(() => api.close());

describe('dot grid background', () => {
  it('a decorative canvas is fixed over the whole viewport, behind the page and ignoring the pointer', () => {
    const css = readFileSync('src/renderer/src/components/dot-grid/dot-grid.module.css', 'utf8');
    const rule = /\.canvas\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
    const declarations = Object.fromEntries(
      rule
        .split(';')
        .map((part) => part.split(':').map((text) => text.trim()))
        .filter((pair) => pair.length === 2),
    );
    expect(declarations).toMatchObject({
      position: 'fixed',
      inset: '0',
      width: '100vw',
      height: '100vh',
      'pointer-events': 'none',
    });
  });

  it.each([
    ['the public layout', 'anonymous', '/landing'],
    ['the signed-in layout', 'user', '/dashboard'],
  ] as const)(
    '%s renders the dot grid canvas, hidden from assistive technology',
    async (_layout, visitor, path) => {
      const { container, router } = renderApp(await servicesFor(api, visitor), path);
      await waitFor(() => expect(container.querySelector('canvas')).not.toBeNull(), { timeout: 5000 });
      expect(router.state.location.pathname).toBe(path);
      expect(container.querySelector('canvas')?.getAttribute('aria-hidden')).toBe('true');
    },
  );
});
