import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, restoreWindowState } from '../../src/main/window-state.js';

describe('window state', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

  it('restores the saved bounds and maximized flag when they are on a display', () => {
    const saved = { bounds: { x: 100, y: 80, width: 1000, height: 700 }, maximized: true };
    expect(restoreWindowState(saved, screen)).toEqual({
      x: 100,
      y: 80,
      width: 1000,
      height: 700,
      maximized: true,
    });
  });

  it.each([
    {
      what: 'a window on a display that is gone',
      saved: { bounds: { x: 3000, y: 0, width: 800, height: 600 }, maximized: false },
    },
    { what: 'a damaged file', saved: { bounds: { x: 'left' } } },
    { what: 'an absurd size', saved: { bounds: { x: 0, y: 0, width: 10, height: 99999 }, maximized: false } },
    { what: 'nothing saved', saved: undefined },
  ])('falls back to the default size for $what', ({ saved }) => {
    expect(restoreWindowState(saved, screen)).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
  });
});
