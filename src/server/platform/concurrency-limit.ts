/**
 * Runs at most `max` tasks at once, the rest first come, first served. When `maxQueue` tasks
 * already wait, a new one is refused with the error `onQueueFull` makes, rather than waiting
 * for ever behind a storm.
 */
export class ConcurrencyLimit {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly max: number,
    readonly maxQueue: number,
    private readonly onQueueFull: () => Error,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active < this.max) this.#active += 1;
    else if (this.#waiting.length >= this.maxQueue) throw this.onQueueFull();
    // A finishing task hands its slot straight to the first waiter, so `#active` stays counted.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }

  get waiting(): number {
    return this.#waiting.length;
  }
}
