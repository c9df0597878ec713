import { describe, expect, it } from 'vitest';
import { DOT_GRID_DEFAULTS, DotField } from '../../../src/renderer/src/components/dot-grid/dot-field';

const WIDTH = 1920;
const HEIGHT = 1080;

function makeField(): DotField {
  const field = new DotField();
  field.resize(WIDTH, HEIGHT);
  return field;
}

/** Index of the dot whose home is nearest to (x, y). */
function dotNear(field: DotField, x: number, y: number): number {
  let best = 0;
  for (let index = 1; index < field.count; index += 1) {
    if (
      Math.hypot(field.x(index) - x, field.y(index) - y) < Math.hypot(field.x(best) - x, field.y(best) - y)
    ) {
      best = index;
    }
  }
  return best;
}

const displacement = (field: DotField, index: number) =>
  Math.hypot(field.offsetX[index] ?? 0, field.offsetY[index] ?? 0);

/** Runs the springs for `seconds` at 60 Hz; returns the largest displacement seen per dot. */
function run(field: DotField, seconds: number): Float32Array {
  const peak = new Float32Array(field.count);
  for (let frame = 0; frame < seconds * 60; frame += 1) {
    field.step(1 / 60);
    for (let index = 0; index < field.count; index += 1) {
      peak[index] = Math.max(peak[index] ?? 0, displacement(field, index));
    }
  }
  return peak;
}

describe('dot field', () => {
  it('dot grid: uses dot size 6, gap 50, proximity 120, shock radius 150, strength 3', () => {
    expect(DOT_GRID_DEFAULTS).toMatchObject({
      dotSize: 6,
      gap: 50,
      proximity: 120,
      shockRadius: 150,
      shockStrength: 3,
    });
    const field = makeField();
    // n dots span n·56 − 50 px: 35 columns (1910 px) by 20 rows (1070 px) fit 1920 × 1080.
    expect(field.count).toBe(35 * 20);
    expect(field.x(1) - field.x(0)).toBe(56);
    expect(field.atRest).toBe(true);
  });

  it('dot grid: burst on click moves only dots within the shock radius 150', () => {
    const field = makeField();
    const centre = dotNear(field, WIDTH / 2, HEIGHT / 2);
    const cx = field.x(centre) + 10;
    const cy = field.y(centre) + 10;
    const homes = Array.from(
      { length: field.count },
      (_, index) => [field.x(index), field.y(index)] as const,
    );
    field.burst(cx, cy);
    const peak = run(field, 0.3);
    let inside = 0;
    homes.forEach(([x, y], index) => {
      const distance = Math.hypot(x - cx, y - cy);
      if (distance < 140) {
        inside += 1;
        expect(peak[index], `dot ${distance.toFixed(0)} px away`).toBeGreaterThan(1);
      }
      if (distance >= 150) expect(peak[index], `dot ${distance.toFixed(0)} px away`).toBe(0);
    });
    expect(inside).toBeGreaterThan(10);
  });

  it('dot grid: a burst pushes dots outward, the closer ones harder than the edge ones', () => {
    const field = makeField();
    const centre = dotNear(field, WIDTH / 2, HEIGHT / 2);
    const [cx, cy] = [field.x(centre) - 28, field.y(centre)];
    const near = centre; // 28 px to the right of the click
    const far = dotNear(field, cx + 28 + 112, cy); // 140 px to the right
    field.burst(cx, cy);
    field.step(1 / 60);
    expect(field.offsetX[near]).toBeGreaterThan(0);
    expect(field.offsetX[far]).toBeGreaterThan(0);
    const peak = run(field, 0.4);
    expect(peak[near]).toBeGreaterThan((peak[far] ?? 0) * 2);
  });

  it('dot grid: fast pointer movement displaces nearby dots, slow movement does not', () => {
    const slow = makeField();
    const fast = makeField();
    const y = HEIGHT / 2 + 5;
    for (let step = 0; step <= 10; step += 1) {
      // Slow: 30 px/s. Fast: 1800 px/s. Both pass through the same points.
      slow.pointerMove(800 + step * 3, y, step * 100);
      fast.pointerMove(800 + step * 30, y, step * (1000 / 60));
    }
    expect(slow.atRest).toBe(true);
    expect(fast.atRest).toBe(false);
    const peak = run(fast, 0.3);
    const swept = dotNear(fast, 950, y);
    const farAway = dotNear(fast, 200, 200);
    expect(peak[swept]).toBeGreaterThan(2);
    expect(peak[farAway]).toBe(0);
  });

  it('dot grid: displaced dots spring back home and the field comes to rest', () => {
    const field = makeField();
    field.burst(WIDTH / 2, HEIGHT / 2);
    expect(field.atRest).toBe(false);
    run(field, 4);
    expect(field.atRest).toBe(true);
    expect(field.step(1 / 60)).toBe(false);
    for (let index = 0; index < field.count; index += 1) expect(displacement(field, index)).toBe(0);
  });

  it('dot grid: dots near the pointer shift colour, others keep the base colour', () => {
    const field = makeField();
    const dot = dotNear(field, 600, 400);
    expect(field.nearness(dot)).toBe(0);
    field.pointerMove(field.x(dot) + 30, field.y(dot), 0);
    expect(field.nearness(dot)).toBeCloseTo(1 - 30 / 120, 5);
    expect(field.nearness(dotNear(field, 1500, 900))).toBe(0);
    field.pointerLeave();
    expect(field.nearness(dot)).toBe(0);
  });

  it('dot grid: nothing moves under prefers-reduced-motion', () => {
    const field = makeField();
    field.setReducedMotion(true);
    field.burst(WIDTH / 2, HEIGHT / 2);
    for (let step = 0; step <= 10; step += 1) field.pointerMove(800 + step * 40, 500, step * 16);
    expect(field.atRest).toBe(true);
    const peak = run(field, 0.5);
    expect(Math.max(...peak)).toBe(0);
  });

  it('dot grid: turning reduced motion on mid-burst sends every dot home at once', () => {
    const field = makeField();
    field.burst(WIDTH / 2, HEIGHT / 2);
    run(field, 0.1);
    field.setReducedMotion(true);
    expect(field.atRest).toBe(true);
    for (let index = 0; index < field.count; index += 1) expect(displacement(field, index)).toBe(0);
  });

  it('dot grid: a resize rebuilds the grid for the new viewport', () => {
    const field = makeField();
    field.burst(WIDTH / 2, HEIGHT / 2);
    field.resize(390, 844);
    // 390 px: 7 columns of 56 px; 844 px: 15 rows.
    expect(field.count).toBe(7 * 15);
    expect(field.atRest).toBe(true);
    // Centred: equal margins left and right.
    const left = field.x(0) - 3;
    const right = 390 - (field.x(6) + 3);
    expect(Math.abs(left - right)).toBeLessThan(0.01);
  });

  it('a long pause between frames does not make the spring explode', () => {
    const field = makeField();
    field.burst(WIDTH / 2, HEIGHT / 2);
    field.step(5);
    for (let index = 0; index < field.count; index += 1) expect(displacement(field, index)).toBeLessThan(200);
  });
});
