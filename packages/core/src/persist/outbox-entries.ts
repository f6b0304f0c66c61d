import type { OutboxPublish } from '../outbox-link.js'
import type { RequestOptions } from '../types.js'
import type { OutboxEntry, OutboxRequest } from './types.js'

// The outbox's entries as data: how one is made from a write, which lane it takes, how the stored
// list is read back (checked, never cast: another version may have written it).

export const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** `/v1/conversations/c_1/messages` → `support /v1/conversations/c_1`: the resource the write changes. */
export const restLane = (service: string, path: string): string =>
  `${service} ${path.split('?')[0]!.split('/').slice(0, 4).join('/')}`

export const publishLane = (channel: string): string => `realtime ${channel}`

/** What a write stores: never its signal, never a token (the pipeline adds the token per attempt). */
export function restRequest(req: RequestOptions): OutboxRequest {
  const { service, method, path, query, body, headers } = req
  const out: OutboxRequest = { service, method, path }
  if (query !== undefined) out.query = query
  if (body !== undefined) out.body = body
  if (headers !== undefined) {
    const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'))
    if (Object.keys(kept).length) out.headers = kept
  }
  return out
}

export type NewEntry =
  | { kind: 'rest'; lane: string; idempotencyKey: string; request: OutboxRequest }
  | { kind: 'publish'; lane: string; idempotencyKey: string; publish: OutboxPublish }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

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
    return isObject(r) && typeof r.service === 'string' && typeof r.method === 'string' && typeof r.path === 'string'
  }
  if (kind === 'publish') {
    const p = v.publish
    return isObject(p) && typeof p.channel === 'string' && typeof p.event === 'string'
  }
  return false
}

/** What is stored under `<key>:outbox`. */
export interface StoredOutbox {
  v: 1
  entries: OutboxEntry[]
}

/** The stored entries, oldest first; anything unreadable is left out. */
export function readEntries(stored: unknown): OutboxEntry[] {
  if (!isObject(stored) || stored.v !== 1 || !Array.isArray(stored.entries)) return []
  return stored.entries.filter(isEntry)
}

export const toStored = (entries: OutboxEntry[]): StoredOutbox => ({ v: 1, entries })

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
