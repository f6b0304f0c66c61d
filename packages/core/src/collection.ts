import { ApiError, ValidationError } from './errors.js'
import type { Http } from './http.js'
import type { CallOptions, Query, ServiceName, WriteOptions } from './types.js'

export interface Page<T> {
  data: T[]
  nextCursor: string | null
}

export interface ListParams extends Query {
  limit?: number
  cursor?: string
}

/**
 * What `list()` returns: await it for one page, or `for await` it for every item across
 * pages (the pattern of the best generated SDKs). The first page is fetched once, lazily.
 */
export interface PagePromise<T> extends PromiseLike<Page<T>>, AsyncIterable<T> {
  /** Every page in turn, starting with this one. */
  pages(): AsyncIterable<Page<T>>
}

export function createPagePromise<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, cursor?: string): PagePromise<T> {
  let first: Promise<Page<T>> | undefined
  const firstPage = () => (first ??= fetchPage(cursor))
  async function* pages(): AsyncGenerator<Page<T>> {
    let page = await firstPage()
    yield page
    // Bounded by the service: it returns null once the last page is reached; a repeated cursor would loop forever, so stop.
    const seen = new Set<string>()
    while (page.nextCursor && !seen.has(page.nextCursor)) {
      seen.add(page.nextCursor)
      page = await fetchPage(page.nextCursor)
      yield page
    }
  }
  return {
    then: (onFulfilled, onRejected) => firstPage().then(onFulfilled, onRejected),
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.data
    },
  }
}

export interface Resource {
  id: string
  name: string
  [key: string]: unknown
}

export interface Collection<T = Resource, Create = Partial<T>, Update = Partial<T>> {
  readonly service: ServiceName
  readonly name: string
  list(params?: ListParams, options?: CallOptions): PagePromise<T>
  get(id: string, options?: CallOptions): Promise<T>
  create(body: Create, options?: WriteOptions): Promise<T>
  update(id: string, patch: Update, options?: WriteOptions): Promise<T>
  remove(id: string, options?: WriteOptions): Promise<void>
}

const NAME = /^[a-z][a-z0-9_-]*(\/[a-z][a-z0-9_-]*)*$/

export function validateId(id: unknown, field = 'id'): string {
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
    throw new ValidationError(field, 'must be a non-empty string of at most 200 characters')
  }
  return encodeURIComponent(id)
}

export function validateLimit(limit: unknown): void {
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100)) {
    throw new ValidationError('limit', 'must be an integer from 1 to 100')
  }
}

function validateBody(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('body', 'must be an object')
}

function checkPage<T>(page: Page<T> | undefined, path: string): Page<T> {
  const cursor = page?.nextCursor
  if (!page || !Array.isArray(page.data) || (cursor !== null && cursor !== undefined && typeof cursor !== 'string')) {
    throw new ApiError(`GET ${path}: the list answer is not { data: [], nextCursor }`, { code: 'invalid_response', status: 200 })
  }
  return { data: page.data, nextCursor: cursor ?? null }
}

/** A generic REST collection at `{service}/v1/{name}`. */
export function createCollection<T = Resource, Create = Partial<T>, Update = Partial<T>>(
  http: Http, service: ServiceName, name: string,
): Collection<T, Create, Update> {
  if (!NAME.test(name)) throw new ValidationError('name', 'must be a lower-case path such as "resources"')
  const base = `/v1/${name}`
  return {
    service,
    name,
    list(params = {}, options = {}) {
      validateLimit(params.limit)
      if (params.cursor !== undefined && typeof params.cursor !== 'string') throw new ValidationError('cursor', 'must be a string')
      const { cursor, ...query } = params
      return createPagePromise<T>(async (c) => {
        const page = await http<Page<T>>({ ...options, service, method: 'GET', path: base, query: { ...query, cursor: c } })
        return checkPage(page, base)
      }, cursor)
    },
    get: (id, options = {}) => http<T>({ ...options, service, method: 'GET', path: `${base}/${validateId(id)}` }),
    create(body, options = {}) {
      validateBody(body)
      return http<T>({ ...options, service, method: 'POST', path: base, body })
    },
    update(id, patch, options = {}) {
      const path = `${base}/${validateId(id)}`
      validateBody(patch)
      return http<T>({ ...options, service, method: 'PATCH', path, body: patch })
    },
    async remove(id, options = {}) {
      await http<void>({ ...options, service, method: 'DELETE', path: `${base}/${validateId(id)}` })
    },
  }
}
