// Remembered write responses per (principal, Idempotency-Key), so a retried write applies once. The
// owner is the app and the caller's subject (service-pipeline.ts): one agent never replays another's.
import { createHash } from 'node:crypto'
import { DEFAULTS } from './defaults.js'

export interface StoredResponse {
  status: number
  body: unknown
}

interface Entry {
  fingerprint: string
  response: StoredResponse
  expiresAt: number
}

export type IdempotencyLookup = { kind: 'miss' } | { kind: 'replay'; response: StoredResponse } | { kind: 'mismatch' }

export class IdempotencyStore {
  // A Map iterates in insertion order, so the first key is always the oldest entry.
  private entries = new Map<string, Entry>()

  constructor(
    private readonly ttlMs: number = DEFAULTS.idempotencyTtlMs,
    private readonly maxEntries: number = DEFAULTS.idempotencyMaxEntries,
    private readonly now: () => number = Date.now,
  ) {}

  static fingerprint(method: string, path: string, body: Buffer): string {
    // A hash of the raw body: a faithful retry resends the same bytes, and up to 10k
    // remembered 1 MiB bodies would be too much to keep.
    return `${method} ${path} ${createHash('sha256').update(body).digest('base64url')}`
  }

  lookup(owner: string, key: string, fingerprint: string): IdempotencyLookup {
    const id = `${owner}\u0000${key}`
    const entry = this.entries.get(id)
    if (!entry) return { kind: 'miss' }
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(id)
      return { kind: 'miss' }
    }
    return entry.fingerprint === fingerprint ? { kind: 'replay', response: entry.response } : { kind: 'mismatch' }
  }

  remember(owner: string, key: string, fingerprint: string, response: StoredResponse): void {
    const id = `${owner}\u0000${key}`
    this.entries.delete(id)
    this.entries.set(id, { fingerprint, response, expiresAt: this.now() + this.ttlMs })
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next()
      if (oldest.done) break
      this.entries.delete(oldest.value)
    }
  }

  clear(): void {
    this.entries.clear()
  }

  get size(): number {
    return this.entries.size
  }
}
