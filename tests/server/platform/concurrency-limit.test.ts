import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from '../../../src/server/platform/concurrency-limit.js';

/** A task that runs until the test releases it, recording when it started. */
function controllableTask(log: string[], name: string) {
  let release!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    release = () => resolve(name);
    fail = reject;
  });
  return {
    task: () => {
      log.push(name);
      return done;
    },
    release,
    fail,
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const queueFull = () => new Error('queue full');

describe('ConcurrencyLimit', () => {
  it('runs at most `max` tasks at once and starts the rest first come, first served', async () => {
    const started: string[] = [];
    const limit = new ConcurrencyLimit(2, 10, queueFull);
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((name) => controllableTask(started, name));
    const results = tasks.map(({ task }) => limit.run(task));

    await flush();
    expect(started).toEqual(['a', 'b']);
    expect(limit.waiting).toBe(3);

    tasks[1]!.release();
    await flush();
    expect(started).toEqual(['a', 'b', 'c']);

    tasks[0]!.release();
    await flush();
    expect(started).toEqual(['a', 'b', 'c', 'd']);

    for (const { release } of tasks) release();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(limit.waiting).toBe(0);
  });

  it('refuses a task when the queue is full, without running it', async () => {
    const started: string[] = [];
    const limit = new ConcurrencyLimit(1, 1, queueFull);
    const running = controllableTask(started, 'running');
    const queued = controllableTask(started, 'queued');
    const refused = controllableTask(started, 'refused');
    const first = limit.run(running.task);
    const second = limit.run(queued.task);

    await expect(limit.run(refused.task)).rejects.toThrow('queue full');
    running.release();
    queued.release();
    await Promise.all([first, second]);
    expect(started).toEqual(['running', 'queued']);
  });

  it('frees the slot of a task that fails', async () => {
    const started: string[] = [];
    const limit = new ConcurrencyLimit(1, 5, queueFull);
    const failing = controllableTask(started, 'failing');
    const next = controllableTask(started, 'next');
    const failed = limit.run(failing.task);
    const following = limit.run(next.task);

    failing.fail(new Error('boom'));
    await expect(failed).rejects.toThrow('boom');
    await flush();
    expect(started).toEqual(['failing', 'next']);
    next.release();
    expect(await following).toBe('next');

    // The slot count is back to zero: a new task starts at once.
    const after = controllableTask(started, 'after');
    const run = limit.run(after.task);
    await flush();
    expect(started.at(-1)).toBe('after');
    after.release();
    await run;
  });
});
