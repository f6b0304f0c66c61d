import { itemFields, oneFields, wrongField, wrongPageField } from '@tandem/contract'
import { hasOwn } from '../own-keys.js'
import type { CacheQuery } from './types.js'

// What an entry's data must be for the cache to hold it: what its snapshot, its live patches and
// its next-page fetch read, and what the contract says a list (or a `get`) of its collection answers. Data put in
// from outside the cache's own fetches (a saved cache, another tab, the server's HTML) is checked
// here before it lands, so nothing a reader later does with it can throw.

/**
 * Why `data` cannot be `query`'s data, as a path into it (`$.pages[0].data[2].subject: not as the
 * contract says`), or undefined when it can. A list is `{ pages: Page[] }`, each page the
 * contract's list envelope with items of its collection (any object, for a collection the registry
 * does not know); an item is an object, its own `id` the query's, that fits what `get(id)` of its
 * collection answers; a call's data is its function's business.
 */
export function wrongData(query: CacheQuery, data: unknown): string | undefined {
  if (query.key !== undefined) return undefined
  if (query.id !== undefined) {
    if (data === undefined) return undefined // an item deleted by a live event
    if (wrongField(data, '') !== undefined) return '$: not an object'
    if (hasOwn(data as object, 'id') && (data as { id: unknown }).id !== query.id) return '$.id: another item’s'
    const wrong = wrongField(data, oneFields(`${query.service}/${query.collection}`) ?? '')
    return wrong === undefined ? undefined : `${wrong}: not as the contract says`
  }
  const pages = (data as { pages?: unknown } | null | undefined)?.pages
  if (wrongField(data, '') !== undefined || !Array.isArray(pages)) return '$.pages: not an array'
  const item = itemFields(`${query.service}/${query.collection}`) ?? ''
  for (let i = 0; i < pages.length; i++) {
    const wrong = wrongPageField(pages[i], item)
    if (wrong !== undefined) return `$.pages[${i}]${wrong.slice(1)}: not as the contract says`
  }
  return undefined
}
