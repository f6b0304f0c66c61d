import { QUERY_POSTS } from '@tandem/contract'
import type { TandemError } from '../errors.js'
import type { FileRequest } from '../uploads/types.js'
import type { Http } from '../http.js'
import { randomId } from '../random-id.js'
import type { OutboxPublish } from '../outbox-link.js'
import type { RequestOptions } from '../types.js'
import { WRITES, restRequest, type NewEntry } from './outbox-entries.js'
import type { OutboxEntry } from './types.js'
import { checkFiles } from '../uploads/check-files.js'
import type { StoredFile } from '../uploads/types.js'
import { isRetryable } from './outbox-classify.js'
import type { OutboxUploads } from './outbox-uploads.js'

// How each client's writes enter the outbox (the two sides of OutboxLink), and how stored ones
// leave it through the same client again.

type Submit = (entry: NewEntry, signal?: AbortSignal) => Promise<unknown>

/**
 * Gives the outbox how stored writes of `kind` are sent. `ended` is aborted when the outbox ends
 * (a logout, `stop()`): a write with files under way stops there and is not sent.
 */
export type Senders = (
  kind: OutboxEntry['kind'],
  send: (entry: OutboxEntry, ended: AbortSignal) => Promise<unknown>,
) => void

/** A stored file as the client's `files` take it: a File keeps its name (a Blob alone would be 'file'). */
const asBlob = ({ blob, name, type }: StoredFile): Blob =>
  typeof File === 'function' ? new File([blob], name, { type }) : blob

/** Files of a held write: what the uploader needs to resume them (their saved URLs) and to cancel it. */
export interface RestUploads extends OutboxUploads {
  /** Drops a held write that waits (not being sent) with `error` as its outcome. */
  drop(id: string, error: TandemError): Promise<boolean>
}

/**
 * `createClient({ outbox })`: its writes are stored, then sent through `http` (their key on each
 * attempt); a write's files are stored with it, and their upload URLs as they are made (`uploads`).
 */
export function restLink(http: Http, senders: Senders, submit: Submit, uploads: RestUploads): Http {
  senders('rest', async (e, ended) => {
    const { request, files, idempotencyKey, id } = e as Extract<OutboxEntry, { kind: 'rest' }>
    // A write without files already on its way is let land (it may be applied anyway); one with
    // files stops with the outbox: its uploads are aborted and deleted, the write is not sent.
    if (!files?.length) return http({ ...request, idempotencyKey })
    const req: FileRequest = {
      ...request,
      idempotencyKey,
      signal: ended,
      files: files.map(asBlob),
      resume: {
        urls: await uploads.urls(idempotencyKey),
        save: (index, url) => uploads.save(idempotencyKey, index, url),
        forget: () => uploads.forget(idempotencyKey),
        drop: (error) => uploads.drop(id, error),
        retryable: isRetryable,
      },
    }
    return http(req)
  })
  return <T>(req: RequestOptions): Promise<T> => {
    // Reads, the POSTs that only ask (a geocode) and the writes that mean nothing later (typing):
    // not kept, they fail offline as reads do.
    if (!WRITES.has(req?.method) || QUERY_POSTS.includes(`${req.service} ${req.path}`) || req.durable === false)
      return http(req)
    const given = req.idempotencyKey ?? req.headers?.['idempotency-key'] ?? req.headers?.['Idempotency-Key']
    let files: StoredFile[] | undefined
    try {
      // Refused before it is stored (FileError): a write the service would refuse is never held.
      files = req.files === undefined ? undefined : checkFiles(req.files)
    } catch (error) {
      return Promise.reject(error)
    }
    const entry: NewEntry = {
      kind: 'rest',
      idempotencyKey: given ?? randomId(),
      request: restRequest(req),
      ...(files?.length && { files }),
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
