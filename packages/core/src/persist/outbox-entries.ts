import { MAX_EVENT_NAME, isChannelName, isIdempotencyKey, matchWrite } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { ValidationError } from '../errors.js'
import type { OutboxPublish } from '../outbox-link.js'
import type { RequestOptions } from '../types.js'
import type { OutboxEntry, OutboxRequest } from './types.js'
import { isStoredFiles } from '../uploads/check-files.js'
import type { StoredFile } from '../uploads/types.js'
import { isObject, isRecord } from '@tandem/contract'

// The outbox's entries as data: how one is made from a write, which lane it takes, how the stored
// list is read back. Storage is not trusted (another version, an extension or a person with the
// profile may have written it): every entry is checked against the contract on every read and
// before every send, and one that is not a write of the contract is never sent.

export const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export const publishLane = (channel: string): string => `realtime ${channel}`

/** What a write stores: never its signal, never a token (the pipeline adds the token per attempt). */
export function restRequest(req: RequestOptions): OutboxRequest {
  const { service, method, path, query, body, headers } = req
  const out: OutboxRequest = { service, method, path }
  if (query !== undefined) out.query = query
  if (body !== undefined) out.body = body
  if (headers !== undefined) {
    const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !isAuthorization(name)))
    if (Object.keys(kept).length) out.headers = kept
  }
  return out
}

/** A write as a client hands it over: its lane is worked out from it (`checkEntry`). */
export type NewEntry =
  | { kind: 'rest'; idempotencyKey: string; request: OutboxRequest; files?: StoredFile[] }
  | { kind: 'publish'; idempotencyKey: string; publish: OutboxPublish }

const isAuthorization = (name: string) => name.toLowerCase() === 'authorization'
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0

/** An entry's fields, each of its type: what is read at all (anything else is another version's). */
function isEntry(v: unknown): v is OutboxEntry {
  if (!isObject(v)) return false
  const { id, lane, idempotencyKey, createdAt, attempts, bytes, kind } = v
  const base =
    typeof id === 'string' &&
    typeof lane === 'string' &&
    typeof idempotencyKey === 'string' &&
    typeof createdAt === 'number' &&
    typeof attempts === 'number' &&
    typeof bytes === 'number'
  if (!base) return false
  if (kind === 'rest') {
    const r = v.request
    // Files restored are Blobs with their name, type and size, within the contract's limits, or the entry is none.
    if (v.files !== undefined && !isStoredFiles(v.files)) return false
    return isObject(r) && typeof r.service === 'string' && typeof r.method === 'string' && typeof r.path === 'string'
  }
  if (kind === 'publish') {
    const p = v.publish
    return isObject(p) && typeof p.channel === 'string' && typeof p.event === 'string'
  }
  return false
}

/** `why` is development-only at each call (`DEV && …`): production builds keep the field alone. */
const refuse = (field: string, why: string | false) =>
  new ValidationError(field, why && `${why}: not a write of the contract, never sent`)

/** A REST write's lane, or why it is no write of the contract. */
function checkRest(request: OutboxRequest): string | ValidationError {
  const { service, method, path, query, body, headers } = request
  const match = matchWrite(service, method, path)
  if (!match)
    return refuse(
      'request.path',
      DEV && process.env.NODE_ENV !== 'production' && `not a ${String(method)} the contract has on ${String(service)}`,
    )
  if (match.operation.body ? !isRecord(body) : body !== undefined)
    return refuse(
      'request.body',
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        (match.operation.body ? 'must be a JSON object' : 'must be absent'),
    )
  if (
    query !== undefined &&
    !(isRecord(query) && Object.values(query).every((v) => v === null || typeof v !== 'object'))
  )
    return refuse(
      'request.query',
      DEV && process.env.NODE_ENV !== 'production' && 'must be an object of strings, numbers and booleans',
    )
  if (
    headers !== undefined &&
    !(isRecord(headers) && Object.entries(headers).every(([k, v]) => typeof v === 'string' && !isAuthorization(k)))
  )
    return refuse(
      'request.headers',
      DEV && process.env.NODE_ENV !== 'production' && 'must be an object of strings, without authorization',
    )
  return match.lane
}

/** A publish's lane, or why it is no publish the service takes. */
function checkPublish(publish: OutboxPublish, key: string): string | ValidationError {
  const { channel, event, idempotencyKey } = publish
  if (!isChannelName(channel))
    return refuse('publish.channel', DEV && process.env.NODE_ENV !== 'production' && 'not a channel name')
  if (event === '' || event.length > MAX_EVENT_NAME)
    return refuse(
      'publish.event',
      DEV && process.env.NODE_ENV !== 'production' && `must be 1 to ${MAX_EVENT_NAME} characters`,
    )
  if (idempotencyKey !== key)
    return refuse('publish.idempotencyKey', DEV && process.env.NODE_ENV !== 'production' && 'must be the entry’s key')
  return publishLane(channel)
}

/**
 * A stored entry checked against the contract: undefined when it is not an entry at all (unreadable),
 * else the entry with its lane worked out again (never the stored one), and `error` when it must not
 * be sent: its service, method and path are none of the contract's writes (`matchWrite`), its body
 * is not what the operation takes, its key or its channel breaks the contract's rule.
 */
export function checkEntry(v: unknown): { entry: OutboxEntry; error?: ValidationError } | undefined {
  if (!isEntry(v)) return undefined
  const lane = !isIdempotencyKey(v.idempotencyKey)
    ? refuse('idempotencyKey', DEV && process.env.NODE_ENV !== 'production' && 'not an idempotency key')
    : !(isCount(v.attempts) && isCount(v.bytes) && Number.isFinite(v.createdAt))
      ? refuse(
          'attempts',
          DEV && process.env.NODE_ENV !== 'production' && 'attempts, bytes and createdAt must be counts and a time',
        )
      : v.kind === 'rest'
        ? checkRest(v.request)
        : checkPublish(v.publish, v.idempotencyKey)
  return typeof lane === 'string' ? { entry: v.lane === lane ? v : { ...v, lane } } : { entry: v, error: lane }
}

/** A write handed over now, as it is stored and read back; throws the `ValidationError` a read would refuse it with. */
export function toEntry(fields: NewEntry, bytes: number, id: string): OutboxEntry {
  const checked = checkEntry({ ...fields, lane: '', id, createdAt: Date.now(), attempts: 0, bytes })
  if (!checked || checked.error)
    throw checked?.error ?? refuse('request', DEV && process.env.NODE_ENV !== 'production' && 'not a write')
  return checked.entry
}

/**
 * What is stored for one held write (`<key>:outbox#<id>`): the entry, and `seq`, its place in the
 * order the writes were stored (ms since epoch, or one more than the last a tab saw: two writes of
 * one millisecond keep their order).
 */
export interface OutboxRecord {
  v: 1
  seq: number
  entry: OutboxEntry
}

export interface ReadOutbox {
  /** The entries that may be sent, oldest first. */
  entries: OutboxEntry[]
  /** Entries that must never be sent, and why. */
  refused: { entry: OutboxEntry; error: ValidationError }[]
  /** The ids of records that hold no entry at all (another version's, a stranger's): dropped. */
  unreadable: string[]
}

/**
 * The stored records (`[id, record]`), each checked on its own: its entry against the contract,
 * under its own id (a record under another entry's id is a stranger's); the entries in `seq` order.
 */
export function readRecords(records: [string, unknown][]): ReadOutbox {
  const read: ReadOutbox = { entries: [], refused: [], unreadable: [] }
  const order: [number, OutboxEntry][] = []
  for (const [id, r] of records) {
    const seq = isObject(r) && r.v === 1 ? r.seq : undefined
    const checked = Number.isFinite(seq) ? checkEntry((r as OutboxRecord).entry) : undefined
    if (checked?.entry.id !== id) read.unreadable.push(id)
    else if (checked.error) read.refused.push(checked as ReadOutbox['refused'][number])
    else order.push([seq as number, checked.entry])
  }
  // Ties (two tabs in one millisecond) by id: every tab reads the same order.
  read.entries = order.sort(([a, x], [b, y]) => a - b || (x.id < y.id ? -1 : 1)).map(([, e]) => e)
  return read
}

/** The first entry of each lane: what may go now (a lane's writes go one after the other). */
export function heads(entries: readonly OutboxEntry[]): OutboxEntry[] {
  const seen = new Set<string>()
  return entries.filter((e) => !seen.has(e.lane) && seen.add(e.lane))
}

/** A short label for logs and UIs: `POST /support/v1/conversations/c_1/messages`, `publish chat:lobby message`. */
export const describe = (e: OutboxEntry): string =>
  e.kind === 'rest'
    ? `${e.request.method} /${e.request.service}${e.request.path}`
    : `publish ${e.publish.channel} ${e.publish.event}`
