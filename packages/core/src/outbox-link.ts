import type { Http } from './http.js'

// The seam between a client and a durable outbox (`durableOutbox()` of @tandem/core/persist):
// types only, so a client that is given none ships nothing of it.

/** A realtime publish as the outbox stores it: what `channel(name).publish` sends, key included. */
export interface OutboxPublish {
  channel: string
  event: string
  data: unknown
  idempotencyKey: string
}

/** Ends a dropped write's uploads: its progress row, and the uploads at `urls` deleted on the service. */
export type DiscardFiles = (idempotencyKey: string, urls: readonly unknown[]) => Promise<void>

/**
 * What `createClient({ outbox })` and `createRealtime(source, { outbox })` are given. Each client
 * hands it the way it sends one write; the outbox stores the write first, sends it through that
 * way (again after a reload, with the same idempotency key) and settles the caller with the outcome.
 */
export interface OutboxLink {
  /**
   * The REST pipeline with its writes (POST, PUT, PATCH, DELETE) going through the outbox;
   * `discard` ends the uploads of a held write with files that is removed (`outbox.remove(id)`).
   */
  rest(http: Http, discard?: DiscardFiles): Http
  /**
   * Realtime publishes: `send` publishes one (its idempotency key given); the function returned
   * publishes through the outbox and resolves with the ack.
   */
  realtime<A>(send: (publish: OutboxPublish) => Promise<A>): (publish: OutboxPublish) => Promise<A>
}
