import type { DotField } from './dot-field';

/** A colour as red, green, blue (0–255) and alpha (0–1). */
export type Rgba = readonly [number, number, number, number];

export interface DotColors {
  base: Rgba;
  active: Rgba;
}

/** Nearness is rounded to this many steps, so a frame builds a handful of colour strings, not hundreds. */
const COLOR_STEPS = 24;

const css = ([red, green, blue, alpha]: Rgba): string => `rgba(${red},${green},${blue},${alpha})`;

function mix(from: Rgba, to: Rgba, amount: number): string {
  const blend = (a: number, b: number) => a + (b - a) * amount;
  const [red, green, blue] = [blend(from[0], to[0]), blend(from[1], to[1]), blend(from[2], to[2])].map(
    Math.round,
  );
  return `rgba(${red},${green},${blue},${blend(from[3], to[3]).toFixed(3)})`;
}

/**
 * Draws the field onto a 2D context whose transform maps CSS pixels. Dots far from the pointer
 * share one path and one fill; only the few near it are filled one by one in their own colour.
 */
export function paintDots(
  context: CanvasRenderingContext2D,
  field: DotField,
  colors: DotColors,
  width: number,
  height: number,
): void {
  context.clearRect(0, 0, width, height);
  const radius = field.config.dotSize / 2;
  // Pairs of (dot index, nearness) for the dots that get their own colour.
  const near: number[] = [];

  context.beginPath();
  for (let index = 0; index < field.count; index += 1) {
    const nearness = field.nearness(index);
    if (nearness > 0) {
      near.push(index, nearness);
      continue;
    }
    const x = field.x(index);
    const y = field.y(index);
    context.moveTo(x + radius, y);
    context.arc(x, y, radius, 0, Math.PI * 2);
  }
  context.fillStyle = css(colors.base);
  context.fill();

  for (let pair = 0; pair < near.length; pair += 2) {
    const index = near[pair]!;
    const amount = Math.ceil(near[pair + 1]! * COLOR_STEPS) / COLOR_STEPS;
    context.beginPath();
    context.arc(field.x(index), field.y(index), radius, 0, Math.PI * 2);
    context.fillStyle = mix(colors.base, colors.active, amount);
    context.fill();
  }
}
