/**
 * Whether this server is draining: told to stop (SIGTERM) but still serving while a load balancer
 * notices its failing readiness and sends new requests elsewhere. Read by the readiness route.
 */
export interface Drain {
  readonly draining: boolean;
  begin(): void;
}

export function createDrain(): Drain {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    begin() {
      draining = true;
    },
  };
}
