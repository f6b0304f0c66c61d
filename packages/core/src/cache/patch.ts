import type { Page } from '../collection.js'
import { idOf, replaceEqualDeep } from './structural-sharing.js'
import type { CacheEvent, ListData } from './types.js'

// Realtime events patch cached data in place of a refetch. Each returns `data` itself when
// nothing changed, so subscribers are not notified for events that do not concern them.

export function patchList<T>(data: ListData<T>, event: CacheEvent<T>): ListData<T> {
  const id = event.type === 'deleted' ? event.id : idOf(event.item)
  const { pages } = data
  if (event.type === 'created') {
    const [first, ...rest] = pages
    if (!first || pages.some((p) => p.data.some((x) => idOf(x) === id))) return data
    return { pages: [{ ...first, data: [event.item, ...first.data] }, ...rest] }
  }
  let changed = false
  const next = pages.map((page): Page<T> => {
    const items =
      event.type === 'deleted'
        ? page.data.filter((x) => idOf(x) !== id)
        : page.data.map((x) => (idOf(x) === id ? replaceEqualDeep(x, event.item) : x))
    if (items.length === page.data.length && items.every((x, i) => x === page.data[i])) return page
    changed = true
    return { ...page, data: items }
  })
  return changed ? { pages: next } : data
}

export function patchItem<T>(id: string, data: T | undefined, event: CacheEvent<T>): T | undefined {
  if ((event.type === 'deleted' ? event.id : idOf(event.item)) !== id) return data
  return event.type === 'deleted' ? undefined : replaceEqualDeep(data, event.item)
}
