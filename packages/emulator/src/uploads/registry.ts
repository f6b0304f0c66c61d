// The service's record of each upload (docs/uploads.md): whose it is, what it declared, whether
// its bytes are all there and checked, and which message holds it. The bytes themselves are the
// tus file store's (tus-endpoint.ts). A write that references uploads claims them here: all or
// none, with one answer for "unknown", "another's" and "on a message already" (no oracle).
import { UPLOADS, type Attachment, type UploadMediaType } from '@tandem/contract'
import { isCustomer } from '../access.js'
import type { Principal } from '../auth.js'
import { HttpError } from '../http-errors.js'
import type { Signer } from './signing.js'

export interface UploadRecord {
  id: string
  app: string
  /** Who may resume, delete and attach it: app, how it proved itself, role and subject. */
  owner: string
  /** The caller's token subject (or `key:<keyId>`). */
  subject: string
  /** A customer's: counts toward the quota (agents have none). */
  customer: boolean
  name: string
  type: UploadMediaType
  size: number
  /** Every byte arrived and matched the declared type. */
  complete: boolean
  /** The thread that holds it, once a message attached it. */
  attachedTo: string | null
  width: number | null
  height: number | null
  /** PATCH body bytes the service has read for it (resends included). */
  received: number
  /** Times the service read the whole file to check its type (once, when the last byte lands). */
  checks: number
  createdAt: number
}

export const ownerOf = (p: Principal): string =>
  [p.app, p.via, isCustomer(p) ? 'customer' : 'agent', p.subject].join('\u0000')

export interface UploadRegistry {
  add(record: UploadRecord): void
  get(id: string): UploadRecord | undefined
  /** The caller's own upload, else undefined (another's reads as unknown). */
  mine(principal: Principal, id: string): UploadRecord | undefined
  remove(id: string): void
  /** The bytes a customer's uploads hold now (complete or not, attached or not). */
  held(app: string, subject: string): number
  /** Checks every id before anything changes: the caller's, complete, on no message. Throws else. */
  claim(principal: Principal, ids: readonly string[] | undefined): UploadRecord[]
  /**
   * Marks claimed uploads as the thread's, and returns them as the thread stores them: with no
   * URL (`url` and `expiresAt` empty). A URL is never stored: every answer, frame and webhook
   * mints its own with `fresh`, under the origin it goes to.
   */
  attach(records: readonly UploadRecord[], threadId: string): Attachment[]
  /**
   * A thread or message with fresh URLs (itself when it holds no file), under `origin`: a REST
   * answer's (its request's Host); omitted, the emulator's own public URL (frames, webhooks).
   */
  fresh<T extends { attachments: Attachment[] }>(item: T, origin?: string, now?: number): T
  /** Uploads no message took within UPLOADS.unattachedTtlMs of their creation. */
  expired(now: number): UploadRecord[]
  all(): IterableIterator<UploadRecord>
  reset(): void
}

const notFound = (id: string) =>
  new HttpError(404, 'upload_not_found', `No upload "${id}" of yours that a message can take.`, [
    { field: 'attachments', message: 'is not an upload of yours, or is on a message already' },
  ])

export function createUploadRegistry(signer: Signer, publicUrl: () => string): UploadRegistry {
  const records = new Map<string, UploadRecord>()
  const attachment = (
    r: Pick<Attachment, 'id' | 'name' | 'type' | 'size' | 'width' | 'height'>,
    origin: string,
    now: number,
  ) => {
    const { url, expiresAt } = signer.sign(origin, r.id, now)
    return { id: r.id, name: r.name, type: r.type, size: r.size, url, expiresAt, width: r.width, height: r.height }
  }
  const registry: UploadRegistry = {
    add: (record) => void records.set(record.id, record),
    get: (id) => records.get(id),
    mine(principal, id) {
      const record = records.get(id)
      return record && record.owner === ownerOf(principal) ? record : undefined
    },
    remove: (id) => void records.delete(id),
    held(app, subject) {
      let bytes = 0
      for (const r of records.values()) if (r.customer && r.app === app && r.subject === subject) bytes += r.size
      return bytes
    },
    claim(principal, ids = []) {
      if (ids.length > UPLOADS.filesPerMessage)
        throw new HttpError(400, 'too_many_files', `A message takes at most ${UPLOADS.filesPerMessage} files.`, [
          { field: 'attachments', message: `must have at most ${UPLOADS.filesPerMessage} items` },
        ])
      const claimed = ids.map((id) => {
        const record = registry.mine(principal, id)
        if (!record || record.attachedTo !== null) throw notFound(id)
        return record
      })
      const waiting = claimed.find((r) => !r.complete)
      if (waiting)
        throw new HttpError(409, 'upload_incomplete', `Upload "${waiting.id}" has not finished.`, [
          { field: 'attachments', message: 'is still uploading' },
        ])
      return claimed
    },
    attach(claimed, threadId) {
      for (const r of claimed) r.attachedTo = threadId
      return claimed.map((r) => ({
        id: r.id,
        name: r.name,
        type: r.type,
        size: r.size,
        url: '',
        expiresAt: '',
        width: r.width,
        height: r.height,
      }))
    },
    fresh: (item, origin = publicUrl(), now = Date.now()) =>
      item.attachments.length === 0
        ? item
        : { ...item, attachments: item.attachments.map((a) => attachment(a, origin, now)) },
    expired(now) {
      return [...records.values()].filter((r) => r.attachedTo === null && now - r.createdAt > UPLOADS.unattachedTtlMs)
    },
    all: () => records.values(),
    reset: () => records.clear(),
  }
  return registry
}
