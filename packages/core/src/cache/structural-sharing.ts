import { hasOwn, setOwn } from '../own-keys.js'

/**
 * `next`, but reusing every part of `prev` that is deep-equal (JSON-like values only), so
 * unchanged items keep their references across refetches and memoised UI skips them.
 * Arrays of objects with an `id` are matched by id, so an item inserted on top does not
 * make every item after it look new. Keys are read and written as own properties only: a
 * `"__proto__"` key in service data stays a key (own-keys.ts), never the copy's prototype.
 */
export function replaceEqualDeep<T>(prev: unknown, next: T): T {
  if (prev === next) return prev as T
  const array = Array.isArray(prev) && Array.isArray(next)
  if (!array && !(isPlainObject(prev) && isPlainObject(next))) return next
  const p = prev as Record<string | number, unknown>
  const n = next as Record<string | number, unknown>
  const keys: (string | number)[] = array ? (next as unknown[]).map((_, i) => i) : Object.keys(n)
  const byId = array ? new Map((prev as unknown[]).map((x) => [idOf(x), x])) : undefined
  const out: Record<string | number, unknown> = array ? ([] as unknown as Record<number, unknown>) : {}
  let same = keys.length === (array ? (prev as unknown[]).length : Object.keys(p).length)
  for (const k of keys) {
    const id = idOf(n[k])
    const own = hasOwn(p, k)
    const before = own ? p[k] : undefined
    const v = replaceEqualDeep(byId && id !== undefined && byId.has(id) ? byId.get(id) : before, n[k])
    setOwn(out, k, v)
    if (v !== before || !own) same = false
  }
  return (same ? prev : out) as T
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false
  const proto = Object.getPrototypeOf(v) as unknown
  return proto === Object.prototype || proto === null
}

export function idOf(v: unknown): unknown {
  return isPlainObject(v) && hasOwn(v, 'id') ? v.id : undefined
}
