import { describe, expect, it } from 'vitest';
import { createHeartbeats, type HeartbeatWriter } from '../../../src/server/licensing/licenses/heartbeats.js';

/** A writer that records each batch and fails the batches it is told to. */
function recordingWriter(failures = 0) {
  const batches: [string, string][][] = [];
  let failuresLeft = failures;
  const writer: HeartbeatWriter = {
    write: async (rows) => {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('database unavailable');
      }
      batches.push(rows);
    },
    close: async () => undefined,
  };
  return { writer, batches };
}

const hourly = { flushIntervalMs: 3_600_000 };

describe('heartbeats (in memory, with a writer that records its batches)', () => {
  it('write the latest check-in of each machine once per flush, and nothing when none is pending', async () => {
    const { writer, batches } = recordingWriter();
    const heartbeats = createHeartbeats({ writer, ...hourly, onFlushError: () => undefined });
    heartbeats.record('a', '2026-01-01T00:00:00.000Z');
    heartbeats.record('b', '2026-01-01T00:00:01.000Z');
    heartbeats.record('a', '2026-01-01T00:00:02.000Z');
    await heartbeats.flush();
    await heartbeats.flush();
    expect(batches).toEqual([
      [
        ['a', '2026-01-01T00:00:02.000Z'],
        ['b', '2026-01-01T00:00:01.000Z'],
      ],
    ]);
    await heartbeats.close();
  });

  it('keep a failed batch for the next flush, without overwriting a newer check-in', async () => {
    const { writer, batches } = recordingWriter(1);
    const heartbeats = createHeartbeats({ writer, ...hourly, onFlushError: () => undefined });
    heartbeats.record('a', '2026-01-01T00:00:00.000Z');
    heartbeats.record('b', '2026-01-01T00:00:00.000Z');
    await expect(heartbeats.flush()).rejects.toThrow('database unavailable');
    heartbeats.record('b', '2026-01-01T00:05:00.000Z');
    await heartbeats.flush();
    expect(batches).toEqual([
      [
        ['a', '2026-01-01T00:00:00.000Z'],
        ['b', '2026-01-01T00:05:00.000Z'],
      ],
    ]);
    await heartbeats.close();
  });

  it('write check-ins made at once together, in one batch per turn, before resolving', async () => {
    const { writer, batches } = recordingWriter();
    const heartbeats = createHeartbeats({ writer, ...hourly, onFlushError: () => undefined });
    heartbeats.record('a', '2026-01-01T00:00:00.000Z');
    const both = Promise.all([
      heartbeats.recordNow('a', '2026-01-01T00:00:01.000Z'),
      heartbeats.recordNow('b', '2026-01-01T00:00:01.000Z'),
    ]);
    expect(batches).toEqual([]);
    await both;
    expect(batches).toEqual([
      [
        ['a', '2026-01-01T00:00:01.000Z'],
        ['b', '2026-01-01T00:00:01.000Z'],
      ],
    ]);
    // The older check-in of 'a' noted for the batch was replaced, not written after it.
    await heartbeats.flush();
    expect(batches).toHaveLength(1);
    await heartbeats.close();
  });

  it('gather check-ins made at once while a write runs into one next write (one commit for many machines)', async () => {
    const batches: [string, string][][] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writer: HeartbeatWriter = {
      write: async (rows) => {
        batches.push(rows);
        if (batches.length === 1) await held;
      },
      close: async () => undefined,
    };
    const heartbeats = createHeartbeats({ writer, ...hourly, onFlushError: () => undefined });
    /** A few turns of the event loop: ample for a write that is free to start. */
    const turns = async () => {
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    const first = heartbeats.recordNow('a', '2026-01-01T00:00:00.000Z');
    await turns();
    expect(batches).toHaveLength(1);
    const later = ['b', 'c', 'd'].map((id) => heartbeats.recordNow(id, '2026-01-01T00:00:01.000Z'));
    await turns();
    // Still held by the first write: the three wait, together.
    expect(batches).toHaveLength(1);
    release();
    await Promise.all([first, ...later]);
    expect(batches.map((batch) => batch.map(([id]) => id))).toEqual([['a'], ['b', 'c', 'd']]);
    await heartbeats.close();
  });

  it('report a failed write made at once instead of failing the check, and keep it for the next flush', async () => {
    const { writer, batches } = recordingWriter(1);
    const reported: unknown[] = [];
    const heartbeats = createHeartbeats({ writer, ...hourly, onFlushError: (error) => reported.push(error) });
    await expect(heartbeats.recordNow('a', '2026-01-01T00:00:00.000Z')).resolves.toBeUndefined();
    expect(reported).toHaveLength(1);
    await heartbeats.flush();
    expect(batches).toEqual([[['a', '2026-01-01T00:00:00.000Z']]]);
    await heartbeats.close();
  });

  it('write early once the most pending are noted, without waiting for the interval', async () => {
    const { writer, batches } = recordingWriter();
    const heartbeats = createHeartbeats({ writer, ...hourly, mostPending: 3, onFlushError: () => undefined });
    heartbeats.record('a', '2026-01-01T00:00:00.000Z');
    heartbeats.record('b', '2026-01-01T00:00:00.000Z');
    await Promise.resolve();
    expect(batches).toEqual([]);
    heartbeats.record('c', '2026-01-01T00:00:00.000Z');
    heartbeats.record('d', '2026-01-01T00:00:00.000Z');
    await heartbeats.flush();
    expect(batches.map((batch) => batch.map(([id]) => id))).toEqual([['a', 'b', 'c'], ['d']]);
    await heartbeats.close();
  });

  it('after an early write failed, write early again only once the interval has tried', async () => {
    const { writer, batches } = recordingWriter(1);
    const reported: unknown[] = [];
    const heartbeats = createHeartbeats({
      writer,
      ...hourly,
      mostPending: 2,
      onFlushError: (error) => reported.push(error),
    });
    heartbeats.record('a', '2026-01-01T00:00:00.000Z');
    heartbeats.record('b', '2026-01-01T00:00:00.000Z');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toHaveLength(1);
    // The database is down: more check-ins do not try again on every check.
    heartbeats.record('c', '2026-01-01T00:00:00.000Z');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([]);
    await heartbeats.close();
    expect(batches.map((batch) => batch.map(([id]) => id).sort())).toEqual([['a', 'b', 'c']]);
  });

  it('write what is pending when closed', async () => {
    const { writer, batches } = recordingWriter();
    const heartbeats = createHeartbeats({ writer, ...hourly, onFlushError: () => undefined });
    heartbeats.record('a', '2026-01-01T00:00:00.000Z');
    await heartbeats.close();
    expect(batches).toEqual([[['a', '2026-01-01T00:00:00.000Z']]]);
  });
});
