import { QUERY_POSTS } from '@tandem/contract'
import type { Http } from '../http.js'
import { randomId } from '../random-id.js'
import type { OutboxPublish } from '../outbox-link.js'
import type { RequestOptions } from '../types.js'
import { WRITES, restRequest, type NewEntry } from './outbox-entries.js'
import type { OutboxEntry } from './types.js'

// How each client's writes enter the outbox (the two sides of OutboxLink), and how stored ones
// leave it through the same client again.

type Submit = (entry: NewEntry, signal?: AbortSignal) => Promise<unknown>

/** Gives the outbox how stored writes of `kind` are sent. */
export type Senders = (kind: OutboxEntry['kind'], send: (entry: OutboxEntry) => Promise<unknown>) => void

/** `createClient({ outbox })`: its writes are stored, then sent through `http` (their key on each attempt). */
export function restLink(http: Http, senders: Senders, submit: Submit): Http {
  senders('rest', (e) =>
    http({ ...(e as Extract<OutboxEntry, { kind: 'rest' }>).request, idempotencyKey: e.idempotencyKey }),
  )
  return <T>(req: RequestOptions): Promise<T> => {
    // Reads, and the POSTs that only ask (a geocode): not kept, they fail offline as reads do.
    if (!WRITES.has(req?.method) || QUERY_POSTS.includes(`${req.service} ${req.path}`)) return http(req)
    const given = req.idempotencyKey ?? req.headers?.['idempotency-key'] ?? req.headers?.['Idempotency-Key']
    const entry: NewEntry = {
      kind: 'rest',
      idempotencyKey: given ?? randomId(),
      request: restRequest(req),
    }
    return submit(entry, req.signal) as Promise<T>
  }
}

/** Field by field: a stored publish may carry more (another version wrote it); nothing else is sent. */
const pick = ({ channel, event, data, idempotencyKey }: OutboxPublish): OutboxPublish => ({
  channel,
  event,
  data,
  idempotencyKey,
})

/** `createRealtime(source, { outbox })`: its publishes are stored, then sent through `send`. */
export function realtimeLink<A>(
  send: (publish: OutboxPublish) => Promise<A>,
  senders: Senders,
  submit: Submit,
): (publish: OutboxPublish) => Promise<A> {
  senders('publish', (e) => send(pick((e as Extract<OutboxEntry, { kind: 'publish' }>).publish)))
  return (publish) => {
    const p = pick(publish)
    return submit({
      kind: 'publish',
      idempotencyKey: p.idempotencyKey,
      publish: p,
    }) as Promise<A>
  }
}
