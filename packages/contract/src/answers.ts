// What a client checks a REST answer (and a channel payload it keeps) against: the generated lines
// (src/generated/answer-fields.ts, from the OpenAPI and AsyncAPI documents) and the one shape check,
// `hasFields` / `wrongField` (has-fields.ts), the same the realtime client runs on every frame.
import { ITEM_FIELDS, ONE_FIELDS, PAGE_FIELDS, THREAD_FIELDS } from './generated/answer-fields.js'
import { wrongField } from './has-fields.js'

export * from './generated/answer-fields.js'
export { hasFields, wrongField } from './has-fields.js'

const THREADS = /^support\/conversations\/[^/]+\/threads$/

const own = <T extends object>(table: T, key: string): T[keyof T] | undefined =>
  Object.prototype.hasOwnProperty.call(table, key) ? table[key as keyof T] : undefined

/**
 * The line each item of a list of `path` fits (`ITEM_FIELDS`, and a conversation's threads), or
 * `undefined` for a path the registry does not have.
 */
export function itemFields(path: string): string | undefined {
  return THREADS.test(path) ? THREAD_FIELDS : own(ITEM_FIELDS, path)
}

/** The line of what `get(id)` on `path` answers (`OneOf<P>`: `ONE_FIELDS`, else the item's). */
export function oneFields(path: string): string | undefined {
  return own(ONE_FIELDS, path) ?? itemFields(path)
}

/**
 * `wrongField` for a list page: its envelope (`PAGE_FIELDS`), then each item of `data` against
 * `item` (`$.data[3].subject`); `undefined` when the page fits.
 */
export function wrongPageField(page: unknown, item: string): string | undefined {
  const envelope = wrongField(page, PAGE_FIELDS)
  if (envelope !== undefined) return envelope
  const data = (page as { data: unknown[] }).data
  for (let i = 0; i < data.length; i++) {
    const wrong = wrongField(data[i], item)
    if (wrong !== undefined) return `$.data[${i}]${wrong.slice(1)}`
  }
  return undefined
}
