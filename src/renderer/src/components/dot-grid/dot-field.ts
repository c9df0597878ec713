/** Tunables of the dot grid; the product fixes the first five (6, 50, 120, 150, 3). */
export interface DotFieldConfig {
  /** Dot diameter in CSS pixels. */
  dotSize: number;
  /** Empty space between neighbouring dots. */
  gap: number;
  /** Dots closer than this to the pointer take on the accent colour and react to fast moves. */
  proximity: number;
  /** Radius of the burst a click sets off. */
  shockRadius: number;
  /** How hard the burst pushes. */
  shockStrength: number;
  /** Pointer speed (px/s) from which a move starts pushing dots. */
  speedTrigger: number;
  /** Pointer speeds above this count as this, so a flick cannot fling dots off screen. */
  maxSpeed: number;
  /** Spring constant pulling each dot home (1/s²). */
  stiffness: number;
  /** Velocity damping (1/s); below 2·√stiffness the spring overshoots a little, which reads as elastic. */
  damping: number;
}

export const DOT_GRID_DEFAULTS: DotFieldConfig = {
  dotSize: 6,
  gap: 50,
  proximity: 120,
  shockRadius: 150,
  shockStrength: 3,
  speedTrigger: 100,
  maxSpeed: 5000,
  stiffness: 70,
  damping: 11,
};

/** Offsets and speeds below these are snapped to zero: the dot is home and the loop may stop. */
const REST_OFFSET = 0.05;
const REST_SPEED = 0.5;
/** Longest step integrated at once; a tab waking up must not explode the spring. */
const MAX_STEP_SECONDS = 1 / 30;
/** Share of the pointer's velocity handed, per 60 Hz frame, to the dots it sweeps past. */
const DRAG_TRANSFER = 0.05;
/** Outward kick (px/s per 60 Hz frame) of a fast move on a dot right under the pointer. */
const MOVE_KICK = 120;
/** A sweep pushes in proportion to how long it lasts, whatever the pointer's event rate. */
const FRAME_SECONDS = 1 / 60;
/** Fastest a dot may fly (px/s), so a long sweep cannot fling dots across the screen. */
const MAX_DOT_SPEED = 1500;
/** Pointer velocity is smoothed over moves, so one jittery event does not count as a flick. */
const VELOCITY_SMOOTHING = 0.5;

/**
 * The physics of the dot-grid background, free of any DOM so it can be tested and
 * driven by whatever draws it. Dots sit on a centred grid; each has an offset from home and a
 * velocity, pulled back by a damped spring. Fast pointer moves and clicks add velocity.
 */
export class DotField {
  readonly config: DotFieldConfig;
  /** Home position of each dot. */
  homeX = new Float32Array(0);
  homeY = new Float32Array(0);
  /** Displacement from home. */
  offsetX = new Float32Array(0);
  offsetY = new Float32Array(0);
  private velocityX = new Float32Array(0);
  private velocityY = new Float32Array(0);
  private moving = false;
  private pointer: { x: number; y: number; time: number; vx: number; vy: number } | undefined;
  private reducedMotion = false;

  constructor(config: Partial<DotFieldConfig> = {}) {
    this.config = { ...DOT_GRID_DEFAULTS, ...config };
  }

  get count(): number {
    return this.homeX.length;
  }

  /** True when no dot is away from home or moving: nothing needs animating. */
  get atRest(): boolean {
    return !this.moving;
  }

  /** Pointer position, or undefined when it is outside the window. */
  get pointerPosition(): { x: number; y: number } | undefined {
    return this.pointer && { x: this.pointer.x, y: this.pointer.y };
  }

  /** Rebuilds the grid for a new viewport; every dot starts at rest at home. */
  resize(width: number, height: number): void {
    const { dotSize, gap } = this.config;
    const cell = dotSize + gap;
    const columns = Math.max(0, Math.floor((width + gap) / cell));
    const rows = Math.max(0, Math.floor((height + gap) / cell));
    // Centres the grid, so the margins left and right (and top and bottom) are equal.
    const left = (width - (columns * cell - gap)) / 2 + dotSize / 2;
    const top = (height - (rows * cell - gap)) / 2 + dotSize / 2;
    const count = columns * rows;
    this.homeX = new Float32Array(count);
    this.homeY = new Float32Array(count);
    this.offsetX = new Float32Array(count);
    this.offsetY = new Float32Array(count);
    this.velocityX = new Float32Array(count);
    this.velocityY = new Float32Array(count);
    for (let row = 0, index = 0; row < rows; row += 1) {
      for (let column = 0; column < columns; column += 1, index += 1) {
        this.homeX[index] = left + column * cell;
        this.homeY[index] = top + row * cell;
      }
    }
    this.moving = false;
  }

  /** Under prefers-reduced-motion nothing moves: input is ignored and every dot goes home. */
  setReducedMotion(reduced: boolean): void {
    this.reducedMotion = reduced;
    if (reduced) {
      this.offsetX.fill(0);
      this.offsetY.fill(0);
      this.velocityX.fill(0);
      this.velocityY.fill(0);
      this.moving = false;
    }
  }

  /** Records a pointer move at `timeMs`; a fast one pushes the dots near the pointer. */
  pointerMove(x: number, y: number, timeMs: number): void {
    const previous = this.pointer;
    let vx = 0;
    let vy = 0;
    let seconds = 0;
    if (previous && timeMs > previous.time) {
      seconds = Math.min((timeMs - previous.time) / 1000, MAX_STEP_SECONDS);
      const elapsed = (timeMs - previous.time) / 1000;
      vx = previous.vx * VELOCITY_SMOOTHING + ((x - previous.x) / elapsed) * (1 - VELOCITY_SMOOTHING);
      vy = previous.vy * VELOCITY_SMOOTHING + ((y - previous.y) / elapsed) * (1 - VELOCITY_SMOOTHING);
      const speed = Math.hypot(vx, vy);
      if (speed > this.config.maxSpeed) {
        vx *= this.config.maxSpeed / speed;
        vy *= this.config.maxSpeed / speed;
      }
    }
    this.pointer = { x, y, time: timeMs, vx, vy };
    if (this.reducedMotion || Math.hypot(vx, vy) < this.config.speedTrigger) return;

    const { proximity } = this.config;
    const frames = seconds / FRAME_SECONDS;
    this.forEachWithin(x, y, proximity, (index, dx, dy, distance) => {
      const push = (1 - distance / proximity) * frames;
      const awayX = distance > 0 ? dx / distance : 0;
      const awayY = distance > 0 ? dy / distance : 0;
      this.addVelocity(
        index,
        (vx * DRAG_TRANSFER + awayX * MOVE_KICK) * push,
        (vy * DRAG_TRANSFER + awayY * MOVE_KICK) * push,
      );
    });
  }

  /** The pointer left the window: no dot is near it any more. */
  pointerLeave(): void {
    this.pointer = undefined;
  }

  /** A click: dots within the shock radius fly outward, harder the closer they are. */
  burst(x: number, y: number): void {
    if (this.reducedMotion) return;
    const { shockRadius, shockStrength, stiffness } = this.config;
    // For an undamped spring the peak offset is v0/√k, so this aims the peak at
    // distance·strength·falloff/2 (a dot 50 px away at strength 3 flies out about 50 px).
    const scale = (shockStrength * Math.sqrt(stiffness)) / 2;
    this.forEachWithin(x, y, shockRadius, (index, dx, dy, distance) => {
      const falloff = 1 - distance / shockRadius;
      this.addVelocity(index, dx * falloff * scale, dy * falloff * scale);
    });
  }

  // Indexes below `count` always exist in the typed arrays, hence the non-null assertions.

  /** Current horizontal position of dot `index`. */
  x(index: number): number {
    return this.homeX[index]! + this.offsetX[index]!;
  }

  /** Current vertical position of dot `index`. */
  y(index: number): number {
    return this.homeY[index]! + this.offsetY[index]!;
  }

  /** How close dot `index` is to the pointer: 1 under it, 0 at or beyond the proximity. */
  nearness(index: number): number {
    if (!this.pointer) return 0;
    const dx = this.x(index) - this.pointer.x;
    const dy = this.y(index) - this.pointer.y;
    const { proximity } = this.config;
    // Called for every dot on every frame: the square test skips the root for the many far ones.
    const distanceSquared = dx * dx + dy * dy;
    return distanceSquared >= proximity * proximity ? 0 : 1 - Math.sqrt(distanceSquared) / proximity;
  }

  /** Advances the springs by `seconds`; returns whether any dot is still moving. */
  step(seconds: number): boolean {
    if (!this.moving) return false;
    const dt = Math.min(Math.max(seconds, 0), MAX_STEP_SECONDS);
    const { stiffness, damping } = this.config;
    let moving = false;
    for (let index = 0; index < this.homeX.length; index += 1) {
      let vx = this.velocityX[index]!;
      let vy = this.velocityY[index]!;
      let ox = this.offsetX[index]!;
      let oy = this.offsetY[index]!;
      if (vx === 0 && vy === 0 && ox === 0 && oy === 0) continue;
      // Semi-implicit Euler: stable for a stiff spring at frame-sized steps.
      vx += (-stiffness * ox - damping * vx) * dt;
      vy += (-stiffness * oy - damping * vy) * dt;
      ox += vx * dt;
      oy += vy * dt;
      if (
        Math.abs(ox) < REST_OFFSET &&
        Math.abs(oy) < REST_OFFSET &&
        vx * vx + vy * vy < REST_SPEED * REST_SPEED
      ) {
        vx = vy = ox = oy = 0;
      } else {
        moving = true;
      }
      this.velocityX[index] = vx;
      this.velocityY[index] = vy;
      this.offsetX[index] = ox;
      this.offsetY[index] = oy;
    }
    this.moving = moving;
    return moving;
  }

  private addVelocity(index: number, dvx: number, dvy: number): void {
    let vx = this.velocityX[index]! + dvx;
    let vy = this.velocityY[index]! + dvy;
    const speed = Math.hypot(vx, vy);
    if (speed > MAX_DOT_SPEED) {
      vx *= MAX_DOT_SPEED / speed;
      vy *= MAX_DOT_SPEED / speed;
    }
    this.velocityX[index] = vx;
    this.velocityY[index] = vy;
  }

  private forEachWithin(
    x: number,
    y: number,
    radius: number,
    visit: (index: number, dx: number, dy: number, distance: number) => void,
  ): void {
    const radiusSquared = radius * radius;
    for (let index = 0; index < this.homeX.length; index += 1) {
      const dx = this.x(index) - x;
      const dy = this.y(index) - y;
      const distanceSquared = dx * dx + dy * dy;
      if (distanceSquared >= radiusSquared) continue;
      visit(index, dx, dy, Math.sqrt(distanceSquared));
      this.moving = true;
    }
  }
}
