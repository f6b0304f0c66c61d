import { isObject } from '@tandem/contract'
import type { KeySession } from './key-session.js'
import type { SafeStorage } from './storage.js'

// The upload URLs of the held writes with files (`<key>:uploads#<idempotency key>`: `{ v: 1, urls }`,
// one per file index), saved as tus makes each upload so that a reload resumes it from the
// service's offset. Written only while the key's session is this page's; a logout deletes them
// with the rest (clear-persisted.ts). Read back untrusted: anything but strings is dropped (and the
// uploader uses a URL only when it is an upload of the client's endpoint).

export interface OutboxUploads {
  urls(idempotencyKey: string): Promise<(string | undefined)[]>
  save(idempotencyKey: string, index: number, url: string): Promise<void>
  forget(idempotencyKey: string): Promise<void>
}

/** `<key>:uploads`: the records' prefix (the idempotency key encoded: no `:` follows, as with the outbox's records). */
export function outboxUploads(
  storage: SafeStorage,
  session: KeySession,
  prefix: string,
  live: () => boolean,
): OutboxUploads {
  const keyOf = (idempotencyKey: string) => `${prefix}#${encodeURIComponent(idempotencyKey)}`
  const urlsOf = (record: unknown): (string | undefined)[] =>
    isObject(record) && record.v === 1 && Array.isArray(record.urls)
      ? record.urls.slice(0, 100).map((u: unknown) => (typeof u === 'string' ? u : undefined))
      : []
  return {
    urls: async (idempotencyKey) => urlsOf(await storage.get(keyOf(idempotencyKey))),
    async save(idempotencyKey, index, url) {
      await session.write(keyOf(idempotencyKey), (old) => {
        if (!live()) return old
        const urls = urlsOf(old)
        urls[index] = url
        return { v: 1, urls: Array.from(urls, (u) => u ?? null) }
      })
    },
    async forget(idempotencyKey) {
      await session.write(keyOf(idempotencyKey), () => undefined)
    },
  }
}
