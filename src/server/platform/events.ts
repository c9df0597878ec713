import type { DbOrTransaction } from './db/database.js';

/** What a context announces happened, named as its webhook is (`license.created`), with the rows it is about. */
export interface DomainEvent {
  readonly type: string;
}

export type EventListener<E extends DomainEvent> = (trx: DbOrTransaction, event: E) => Promise<void>;

/**
 * How a context announces what happened: inside the transaction of the change, so what listeners
 * write (a webhook's deliveries, a mail) commits with the change or not at all, and a listener that
 * fails rolls the change back, as a write of the change's own would.
 */
export interface EventPublisher<E extends DomainEvent> {
  publish(trx: DbOrTransaction, event: E): Promise<void>;
}

/**
 * How a context hears the events it is handed (admin: licensing's), to queue the mail they bring.
 * Not a base of {@link EventBus}: declared apart, the app's bus of every event is checked against
 * it member by member, so it serves as a context's narrower one.
 */
export interface EventSubscriber<E extends DomainEvent> {
  /** Hears the events of one type, after the listeners subscribed before it. */
  on<T extends E['type']>(type: T, listener: EventListener<Extract<E, { type: T }>>): void;
}

export interface EventBus<E extends DomainEvent> extends EventPublisher<E> {
  /** Hears the events of one type, after the listeners subscribed before it. */
  on<T extends E['type']>(type: T, listener: EventListener<Extract<E, { type: T }>>): void;
}

/**
 * The server's events, one bus per app: the composition subscribes the webhooks, and a context
 * the customer's mail its own events bring, so the service that changed something never names who
 * hears of it.
 */
export function createEventBus<E extends DomainEvent>(): EventBus<E> {
  const listeners = new Map<string, EventListener<E>[]>();
  return {
    on(type, listener) {
      const existing = listeners.get(type) ?? [];
      listeners.set(type, [...existing, listener as EventListener<E>]);
    },
    async publish(trx, event) {
      // One after another, in the order subscribed: the rows they write keep the same order on every run.
      for (const listener of listeners.get(event.type) ?? []) await listener(trx, event);
    },
  };
}
