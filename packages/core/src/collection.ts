import {
  MAX_ID,
  PAGE_MAX,
  PAGE_MIN,
  type CollectionName,
  type CollectionPath,
  type CreateOf,
  type ItemOf,
  type ParamsOf,
  type UpdateOf,
} from '@tandem/contract'
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
  /** Every page in turn, starting with this one. */
  pages(): AsyncIterable<Page<T>>
}

export function createPagePromise<T>(
  first: Promise<Page<T>>,
  fetchPage: (cursor: string) => Promise<Page<T>>,
): PagePromise<T> {
  async function* pages(): AsyncGenerator<Page<T>> {
    let page = await first
    yield page
    // The service returns null after the last page; a cursor seen before would loop forever, so stop.
    const seen = new Set<string>()
    while (page.nextCursor && !seen.has(page.nextCursor)) {
      seen.add(page.nextCursor)
      page = await fetchPage(page.nextCursor)
      yield page
    }
  }
  return Object.assign(first, {
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
    throw new ValidationError('body', process.env.NODE_ENV !== 'production' && 'must be an object')
  return body
}

/** A list answer as `{ data, nextCursor }`, or an `ApiError` `invalid_response`. */
export function checkPage<T>(page: Page<T> | undefined, path: string): Page<T> {
  const cursor = page?.nextCursor
  if (!page || !Array.isArray(page.data) || (cursor !== null && cursor !== undefined && typeof cursor !== 'string')) {
    throw new ApiError(`GET ${path}: not a list`, { code: 'invalid_response', status: 200 })
  }
  return { data: page.data, nextCursor: cursor ?? null }
}

/**
 * GET pages of a list as a `PagePromise`. `prepare` runs inside the promise, so bad input rejects
 * like every other failure; it gives the path and the query, whose `cursor` is the first page's
 * (the rest is re-sent with each next cursor).
 */
export function listPages<T>(
  http: Http,
  service: ServiceName,
  options: CallOptions | undefined,
  prepare: () => [path: string, query: Query],
): PagePromise<T> {
  let path = ''
  let query: Query = {}
  const page = async (cursor?: string) =>
    checkPage(await http<Page<T>>({ ...options, service, method: 'GET', path, query: { ...query, cursor } }), path)
  const first = (async () => {
    const [p, { cursor, ...rest }] = prepare()
    path = p
    query = rest
    return page(cursor as string | undefined)
  })()
  return createPagePromise(first, page)
}

/** A generic REST collection at `{service}/v1/{name}`. */
export function createCollection<T = Resource, Create = Partial<T>, Update = Partial<T>>(
  http: Http,
  service: ServiceName,
  name: string,
): Collection<T, Create, Update> {
  if (!NAME.test(name))
    throw new ValidationError(
      'name',
      process.env.NODE_ENV !== 'production' && 'must be a lower-case path such as "resources"',
    )
  const base = `/v1/${name}`
  const at = (id: unknown) => `${base}/${validateId(id)}`
  const send = <R>(method: HttpMethod, path: string, options: WriteOptions = {}, body?: unknown) =>
    http<R>({ ...options, service, method, path, body })
  return {
    service,
    name,
    list: (params, options) =>
      listPages<T>(http, service, options, () => {
        const query = { ...params }
        validateLimit(query.limit)
        if (query.cursor !== undefined && typeof query.cursor !== 'string')
          throw new ValidationError('cursor', process.env.NODE_ENV !== 'production' && 'must be a string')
        return [base, query]
      }),
    get: async (id, options) => send<T>('GET', at(id), options),
    async create(body, options) {
      return send<T>('POST', base, options, validateBody(body))
    },
    async update(id, patch, options) {
      const path = at(id)
      return send<T>('PATCH', path, options, validateBody(patch))
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
  return createCollection(httpOf(client), service, name)
}
