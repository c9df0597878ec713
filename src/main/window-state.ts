import { z } from 'zod';
import { readJsonFile, writeJsonFile } from './json-file.js';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

const windowStateSchema = z.object({
  bounds: z.object({
    x: z.number().int(),
    y: z.number().int(),
    width: z.number().int().min(200).max(20_000),
    height: z.number().int().min(200).max(20_000),
  }),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export const DEFAULT_WINDOW_SIZE = { width: 1200, height: 800 };
export const MIN_WINDOW_SIZE = { width: 360, height: 560 };

const overlaps = (a: Rectangle, b: Rectangle) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The saved window, if it still shows on one of the current displays (a monitor may have been
 * unplugged since); otherwise the default size, centred by Electron.
 */
export function restoreWindowState(saved: unknown, workAreas: readonly Rectangle[]) {
  const parsed = windowStateSchema.safeParse(saved);
  if (parsed.success && workAreas.some((area) => overlaps(parsed.data.bounds, area)))
    return { ...parsed.data.bounds, maximized: parsed.data.maximized };
  return { ...DEFAULT_WINDOW_SIZE, maximized: false };
}

export const readWindowState = (path: string) => readJsonFile(path);

export function writeWindowState(path: string, bounds: Rectangle, maximized: boolean): Promise<void> {
  const state: WindowState = {
    bounds: {
      x: Math.round(bounds.x),
      y: Math.round(bounds.y),
      width: Math.round(bounds.width),
      height: Math.round(bounds.height),
    },
    maximized,
  };
  return writeJsonFile(path, state);
}
