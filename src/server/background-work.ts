import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that runs after the answer has gone (mail, the writes behind a password-reset request),
 * so a response's timing never depends on it. `flush` waits for all of it, including work
 * queued by work, for tests and for a graceful shutdown.
 */
export class BackgroundWork {
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(label: string, task: () => Promise<void>): void {
    const running = task()
      .catch((error: unknown) => this.log.error({ err: error, task: label }, 'background work failed'))
      .finally(() => this.#pending.delete(running));
    this.#pending.add(running);
  }

  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }
}
