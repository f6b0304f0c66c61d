import {
  MAX_ID,
  PAGE_MAX,
  PAGE_MIN,
  itemFields,
  oneFields,
  wrongPageField,
  type CollectionName,
  type CollectionPath,
  type CreateOf,
  type ItemOf,
  type ParamsOf,
  type UpdateOf,
} from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { httpOf, type RequestClient } from './client-request.js'
import { ApiError, ValidationError } from './errors.js'
import type { Http } from './http.js'
import { requireNumber, optional } from './validate.js'
import type { CallOptions, HttpMethod, Query, ServiceName, WriteOptions } from './types.js'

export interface Page<T> {
  data: T[]
  nextCursor: string | null
}

export interface ListParams extends Query {
  limit?: number
  cursor?: string
}

/**
 * What `list()` returns: a real Promise of the first page (so `.catch`, `.finally` and type
 * inference in TanStack Query and friends work), which is also async-iterable over every item
 * across pages (the pattern of the best generated SDKs). The first page is requested at once.
 */
export interface PagePromise<T> extends Promise<Page<T>>, AsyncIterable<T> {
  /**
   * Every page in turn, starting with this one. A page whose `nextCursor` this list gave before
   * fails with `ApiError` `bad_response` (it would loop); with `maxPages`, a list that has more
   * fails with `ApiError` `too_many_pages` once that many are read.
   */
  pages(options?: { maxPages?: number }): AsyncIterable<Page<T>>
}

/** A page as fetched: its answer's request id beside it, for the errors of the chain. */
export interface FetchedPage<T> {
  page: Page<T>
  requestId?: string
}

/**
 * The next page after `cursor`. `seen` holds the cursors this chain followed: a fetch that can
 * refuse a page answering one again (with the answer's status and request id) does.
 */
type FetchPage<T> = (cursor: string, seen: ReadonlySet<string>) => Promise<FetchedPage<T>>

/** A list from its first page and a way to fetch the next: a `PagePromise` of `listPages`' or your own. */
export function createPagePromise<T>(
  first: Promise<Page<T>>,
  fetchPage: (cursor: string) => Promise<Page<T>>,
): PagePromise<T> {
  // A promise of our own to extend, not the caller's.
  return pagePromise(
    first.then((page) => page),
    () => undefined,
    (cursor) => fetchPage(cursor).then((page) => ({ page })),
  )
}

/** `first` becomes the `PagePromise` (one promise per list, no `then` of it); `firstId()` its request id once settled. */
function pagePromise<T>(
  first: Promise<Page<T>>,
  firstId: () => string | undefined,
  fetchPage: FetchPage<T>,
  where: () => string = () => 'list',
): PagePromise<T> {
  const out = first
  async function* pages({ maxPages = Infinity } = {}): AsyncGenerator<Page<T>> {
    let page = await out
    let requestId = firstId()
    yield page
    // The service returns null after the last page; a cursor followed before would loop for ever.
    const seen = new Set<string>()
    for (let count = 1; page.nextCursor; count++) {
      const init = { code: 'too_many_pages', requestId, details: { maxPages } }
      if (seen.has(page.nextCursor))
        throw new ApiError(`${where()}: a cursor it gave before`, { ...init, code: 'bad_response' })
      if (count >= maxPages) throw new ApiError(`${where()}: more than ${maxPages} pages`, init)
      seen.add(page.nextCursor)
      ;({ page, requestId } = await fetchPage(page.nextCursor, seen))
      yield page
    }
  }
  return Object.assign(out, {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.data
    },
  })
}

export interface Resource {
  id: string
  name: string
  [key: string]: unknown
}

export interface Collection<T = Resource, Create = Partial<T>, Update = Partial<T>, Params = ListParams> {
  readonly service: ServiceName
  readonly name: string
  list(params?: Params, options?: CallOptions): PagePromise<T>
  get(id: string, options?: CallOptions): Promise<T>
  create(body: Create, options?: WriteOptions): Promise<T>
  update(id: string, patch: Update, options?: WriteOptions): Promise<T>
  remove(id: string, options?: WriteOptions): Promise<void>
}

const NAME = /^[a-z][a-z0-9_-]*(\/[a-z][a-z0-9_-]*)*$/

export function validateId(id: unknown, field = 'id'): string {
  // '.' and '..' survive encodeURIComponent and would be resolved away by URL parsing.
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID || id === '.' || id === '..') {
    throw new ValidationError(
      field,
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        `must be a non-empty string of at most ${MAX_ID} characters (not "." or "..")`,
    )
  }
  return encodeURIComponent(id)
}

/** Page size: an integer from 1 to 100 when given. */
export function validateLimit(limit: unknown): void {
  optional(limit, (v) => requireNumber(v, 'limit', PAGE_MIN, PAGE_MAX, true))
}

function validateBody<B>(body: B): B {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ValidationError('body', DEV && process.env.NODE_ENV !== 'production' && 'must be an object')
  return body
}

/**
 * GET pages of a list as a `PagePromise`. `prepare` runs inside the promise, so bad input rejects
 * like every other failure; it gives the path and the query, whose `cursor` is the first page's
 * (the rest is re-sent with each next cursor). Each page is checked where its request id is known:
 * the envelope, each item against `item` (the contract's line of the list's item; only the
 * envelope without one), and a `nextCursor` the chain followed before: an `ApiError` `bad_response`.
 */
export function listPages<T>(
  http: Http,
  service: ServiceName,
  options: CallOptions | undefined,
  prepare: () => [path: string, query: Query],
  item = '',
): PagePromise<T> {
  let path = ''
  let query: Query = {}
  const page = async (cursor?: string, seen?: ReadonlySet<string>): Promise<FetchedPage<T>> => {
    let requestId: string | undefined
    const shape = (answer: unknown, id: string | undefined) => {
      requestId = id
      const wrong = wrongPageField(answer, item)
      if (wrong !== undefined) return wrong // `null`, `"lol"`: nothing below is read
      const next = (answer as Page<T>).nextCursor
      return next && seen?.has(next) ? '$.nextCursor (a cursor it gave before)' : undefined
    }
    const { data, nextCursor } = await http<Page<T>>({
      ...options,
      service,
      method: 'GET',
      path,
      query: { ...query, cursor },
      shape,
    })
    return { page: { data, nextCursor: nextCursor ?? null }, requestId }
  }
  let firstId: string | undefined
  const first = (async () => {
    const [p, { cursor, ...rest }] = prepare()
    path = p
    query = rest
    // Awaited, not returned: a promise returned from an async function costs two more turns.
    const fetched = await page(cursor as string | undefined)
    firstId = fetched.requestId
    return fetched.page
  })()
  return pagePromise(
    first,
    () => firstId,
    page,
    () => `GET ${path}`,
  )
}

/**
 * A generic REST collection at `{service}/v1/{name}`. `item` is the contract's line of its items
 * (`@tandem/contract`'s `ITEM_FIELDS`), which every list page, create and update answer is checked
 * against, and `one` the line of what `get` answers (the item's unless given); without them only a
 * page's envelope is checked.
 */
export function createCollection<T = Resource, Create = Partial<T>, Update = Partial<T>>(
  http: Http,
  service: ServiceName,
  name: string,
  item = '',
  one = item,
): Collection<T, Create, Update> {
  if (!NAME.test(name))
    throw new ValidationError(
      'name',
      DEV && process.env.NODE_ENV !== 'production' && 'must be a lower-case path such as "resources"',
    )
  const base = `/v1/${name}`
  const at = (id: unknown) => `${base}/${validateId(id)}`
  const send = <R>(method: HttpMethod, path: string, options: WriteOptions = {}, body?: unknown, shape?: string) =>
    http<R>({ ...options, service, method, path, body, shape })
  return {
    service,
    name,
    list: (params, options) =>
      listPages<T>(
        http,
        service,
        options,
        () => {
          const query = { ...params }
          validateLimit(query.limit)
          if (query.cursor !== undefined && typeof query.cursor !== 'string')
            throw new ValidationError('cursor', DEV && process.env.NODE_ENV !== 'production' && 'must be a string')
          return [base, query]
        },
        item,
      ),
    get: async (id, options) => send<T>('GET', at(id), options, undefined, one),
    async create(body, options) {
      return send<T>('POST', base, options, validateBody(body), item)
    },
    async update(id, patch, options) {
      const path = at(id)
      return send<T>('PATCH', path, options, validateBody(patch), item)
    },
    async remove(id, options) {
      await send<void>('DELETE', at(id), options)
    },
  }
}

export type PathOf<S extends ServiceName, N extends string> = `${S}/${N}` extends infer P extends CollectionPath
  ? P
  : never

/** The registry's collection at `P`: its item, create and update bodies and list params. */
export type TypedCollection<P extends CollectionPath> = Collection<ItemOf<P>, CreateOf<P>, UpdateOf<P>, ParamsOf<P>>

/**
 * A collection of the contract's registry, typed from it: `collection(client, 'support',
 * 'conversations')` lists `Conversation`s with the contract's filters. A function of its own (not a
 * method of the modular client), so that an app that never uses a collection does not ship one.
 */
export function collection<S extends ServiceName, N extends CollectionName<S>>(
  client: RequestClient,
  service: S,
  name: N,
): TypedCollection<PathOf<S, N>> {
  const path = `${service}/${name}`
  return createCollection(httpOf(client), service, name, itemFields(path), oneFields(path))
}
