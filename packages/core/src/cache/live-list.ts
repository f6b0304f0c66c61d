import type { ListRule } from '@tandem/contract'
import type { Page } from '../collection.js'
import { idOf, replaceEqualDeep } from './structural-sharing.js'
import type { ListData } from './types.js'

// One change event applied to a cached list, by the collection's rules (LIST_RULES in the
// contract): the list stays what `list()` would answer now. Loaded pages are a prefix of the
// service's order, so an item that sorts past the last loaded one, while more pages remain, is
// not shown (the next page brings it).

type Item = Record<string, unknown>

/** What to do with an event: a new list (possibly the same object), or `refetch` when only the service can tell. */
export type Placement<T> = ListData<T> | 'refetch'

/** The params that filter (not `limit`, `cursor`, or an absent value). */
export function filterParams(params: Record<string, unknown> | undefined): [string, unknown][] {
  return Object.entries(params ?? {}).filter(([k, v]) => k !== 'limit' && k !== 'cursor' && v !== undefined)
}

/** Whether `item` passes every filter; `undefined` when a filter is one only the service can judge. */
export function passes(item: Item, filters: [string, unknown][], rule: ListRule): boolean | undefined {
  for (const [param, value] of filters) {
    const f = rule.filters[param]
    if (!f || f.match === 'unknown') return undefined
    const field = item[f.field]
    if (f.match === 'equals' && field !== value) return false
    if (f.match === 'includes') {
      const wanted = String(value).trim().toLowerCase()
      if (!Array.isArray(field) || !field.some((v) => String(v).toLowerCase() === wanted)) return false
    }
    if (f.match === 'at-or-after') {
      const at = Date.parse(String(field))
      const since = Date.parse(value instanceof Date ? value.toISOString() : String(value))
      if (!(at >= since)) return false
    }
  }
  return true
}

/** The service's order: by the timestamp field in its direction, ties by id in the same direction. */
function comparator(order: Exclude<ListRule['order'], 'creation'>): (a: Item, b: Item) => number {
  const sign = order.direction === 'desc' ? -1 : 1
  return (a, b) => {
    const d = Date.parse(String(a[order.field])) - Date.parse(String(b[order.field]))
    if (d !== 0) return sign * d
    const [x, y] = [String(a.id), String(b.id)]
    return x === y ? 0 : sign * (x < y ? -1 : 1)
  }
}

/** `items` laid out again on the list's pages: each keeps its size and cursor, the first absorbs the change. */
function repage<T>(pages: Page<T>[], items: T[]): ListData<T> {
  const out: Page<T>[] = []
  let at = items.length - pages.slice(1).reduce((n, p) => n + p.data.length, 0)
  at = Math.max(0, at)
  out.push({ ...pages[0]!, data: items.slice(0, at) })
  for (const page of pages.slice(1)) {
    out.push({ ...page, data: items.slice(at, at + page.data.length) })
    at += page.data.length
  }
  return { pages: out }
}

/** A created or updated `item` placed in `data`: patched, moved, inserted, removed, or `refetch`. */
export function placeItem<T>(
  data: ListData<T>,
  item: T,
  created: boolean,
  params: Record<string, unknown> | undefined,
  rule: ListRule,
): Placement<T> {
  const ok = passes(item as Item, filterParams(params), rule)
  if (ok === undefined) return 'refetch'
  const { pages } = data
  if (pages.length === 0) return data
  const id = idOf(item)
  const items = pages.flatMap((p) => p.data)
  const index = items.findIndex((x) => idOf(x) === id)
  const complete = !pages.at(-1)?.nextCursor
  if (!ok) {
    if (index < 0) return data
    items.splice(index, 1)
    return repage(pages, items)
  }
  if (rule.order === 'creation') {
    if (index >= 0) {
      const next = replaceEqualDeep(items[index], item)
      if (next === items[index]) return data
      items[index] = next
      return repage(pages, items)
    }
    // New items go last: shown only when every page is loaded.
    if (!created || !complete) return data
    return repage(pages, [...items, item])
  }
  const previous = index >= 0 ? items.splice(index, 1)[0] : undefined
  const compare = comparator(rule.order)
  let at = items.findIndex((x) => compare(item as Item, x as Item) < 0)
  if (at < 0) at = items.length
  if (at === items.length && !complete) return index < 0 ? data : repage(pages, items) // past the loaded prefix
  items.splice(at, 0, previous === undefined ? item : replaceEqualDeep(previous, item))
  if (at === index && previous !== undefined && items[at] === previous) return data
  return repage(pages, items)
}
