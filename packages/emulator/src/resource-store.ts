// In-memory resources of one service, in creation order, with opaque keyset cursors.
import { PAGE_DEFAULT } from '@tandem/contract'
import { HttpError } from './http-errors.js'
import { resourceId, seedResources } from './seed-data.js'
import type { Resource, Service } from './shared-types.js'

interface Entry {
  seq: number
  resource: Resource
}

export interface ListPage {
  data: Resource[]
  nextCursor: string | null
}

export class ResourceStore {
  private entries: Entry[] = []
  private byId = new Map<string, Entry>()
  private nextSeq = 1

  constructor(
    readonly service: Service,
    private readonly seed: number,
  ) {
    this.reset()
  }

  reset(): void {
    const seeded = seedResources(this.service, this.seed)
    this.entries = seeded.map((resource, i) => ({ seq: i + 1, resource }))
    this.byId = new Map(this.entries.map((e) => [e.resource.id, e]))
    this.nextSeq = seeded.length + 1
  }

  get size(): number {
    return this.entries.length
  }

  /** Keyset pagination on the creation sequence: stable under inserts and deletes. */
  list(limit: number, cursor: string | null): ListPage {
    const after = cursor === null ? 0 : this.decodeCursor(cursor)
    const start = this.firstIndexAfter(after)
    const page = this.entries.slice(start, start + limit)
    const last = page[page.length - 1]
    const more = start + limit < this.entries.length
    return { data: page.map((e) => e.resource), nextCursor: more && last ? this.encodeCursor(last.seq) : null }
  }

  get(id: string): Resource | undefined {
    return this.byId.get(id)?.resource
  }

  create(name: string, attributes: Record<string, unknown>, now: Date = new Date()): Resource {
    const seq = this.nextSeq++
    const at = now.toISOString()
    const resource: Resource = {
      id: resourceId(this.service, seq),
      name,
      service: this.service,
      attributes,
      createdAt: at,
      updatedAt: at,
    }
    const entry = { seq, resource }
    this.entries.push(entry)
    this.byId.set(resource.id, entry)
    return resource
  }

  /** Shallow JSON merge patch of `attributes` (a null value removes the key). */
  update(
    id: string,
    patch: { name?: string; attributes?: Record<string, unknown> },
    now: Date = new Date(),
  ): Resource | undefined {
    const entry = this.byId.get(id)
    if (!entry) return undefined
    const attributes = { ...entry.resource.attributes }
    for (const [key, value] of Object.entries(patch.attributes ?? {})) {
      if (value === null) delete attributes[key]
      // defineProperty: a `__proto__` key from JSON stays a plain key, never a prototype.
      else Object.defineProperty(attributes, key, { value, enumerable: true, writable: true, configurable: true })
    }
    entry.resource = {
      ...entry.resource,
      name: patch.name ?? entry.resource.name,
      attributes,
      updatedAt: now.toISOString(),
    }
    return entry.resource
  }

  delete(id: string): boolean {
    const entry = this.byId.get(id)
    if (!entry) return false
    this.byId.delete(id)
    const index = this.firstIndexAfter(entry.seq - 1)
    this.entries.splice(index, 1)
    return true
  }

  private firstIndexAfter(seq: number): number {
    let lo = 0
    let hi = this.entries.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.entries[mid]?.seq ?? Infinity) <= seq) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private encodeCursor(seq: number): string {
    return Buffer.from(JSON.stringify({ s: this.service, a: seq }), 'utf8').toString('base64url')
  }

  private decodeCursor(cursor: string): number {
    const bad = () =>
      new HttpError(400, 'invalid_cursor', 'The cursor is not valid for this list.', [
        { field: 'cursor', message: 'unrecognised cursor' },
      ])
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw bad()
    let value: unknown
    try {
      value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    } catch {
      throw bad()
    }
    const v = value as { s?: unknown; a?: unknown } | null
    if (!v || v.s !== this.service || typeof v.a !== 'number' || !Number.isSafeInteger(v.a) || v.a < 0) throw bad()
    return v.a
  }
}

/** A list's `limit`, already held to the contract's 1–100 (spec/rest-inputs.ts); 20 when absent. */
export const parseLimit = (raw: string | null): number => (raw === null ? PAGE_DEFAULT : Number(raw))
