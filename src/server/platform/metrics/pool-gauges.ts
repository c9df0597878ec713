import type pg from 'pg';
import { Gauge, type Registry } from 'prom-client';

/** The PostgreSQL pool's connections when scraped: open, idle, and queries waiting for one. */
export function addPoolGauges(registry: Registry, pool: pg.Pool): void {
  new Gauge({
    name: 'portal_db_pool_connections',
    help: 'PostgreSQL connection pool: state="total" open, "idle" unused, "waiting" queries queued for a connection, "max" the limit',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
      this.set({ state: 'max' }, pool.options.max ?? 10);
    },
  });
}
