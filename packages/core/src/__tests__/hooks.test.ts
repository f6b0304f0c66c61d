// ofetch's hooks as the client's interceptors, against a real server on 127.0.0.1 that records
// what reached it (the emulator does not echo headers).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient, isTandemError, type ClientOptions } from '../index.js'

let server: Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

/** A service that answers each request with the next status of `statuses` (then 200), and records headers. */
async function service(statuses: number[] = []) {
  const seen: IncomingHttpHeaders[] = []
  server = createServer((req, res) => {
    seen.push(req.headers)
    const status = statuses.shift() ?? 200
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${seen.length}` })
    res.end(JSON.stringify(status < 400 ? { data: [], nextCursor: null } : { error: { code: `e${status}` } }))
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, seen }
}

const client = (url: string, o: Partial<ClientOptions> = {}) =>
  createClient({
    baseUrl: url,
    auth: { fetchToken: async () => ({ token: 'tok_hooks', expiresIn: 600 }) },
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...o,
  })

describe('hooks (ofetch interceptors)', () => {
  it('onRequest adds a tracing header to every attempt, a retried one included', async () => {
    const { url, seen } = await service([503])
    let n = 0
    const tandem = client(url, {
      hooks: { onRequest: ({ options }) => options.headers.set('x-trace-id', `trace-${++n}`) },
    })
    await tandem.support.resources.list()
    expect(seen.map((h) => h['x-trace-id'])).toEqual(['trace-1', 'trace-2'])
    expect(seen.every((h) => h.authorization === 'Bearer tok_hooks')).toBe(true) // the pipeline's header stays
  })

  it('onRequest + onResponse record response times; onResponseError sees error answers', async () => {
    const { url } = await service([404])
    const started = new WeakMap<object, number>()
    const times: number[] = []
    const errors: number[] = []
    const tandem = client(url, {
      hooks: {
        onRequest: ({ options }) => void started.set(options, performance.now()),
        onResponse: ({ options }) => void times.push(performance.now() - started.get(options)!),
        onResponseError: ({ response }) => void errors.push(response.status),
      },
    })
    await expect(tandem.maps.resources.get('x')).rejects.toMatchObject({ name: 'ApiError', status: 404 })
    await tandem.maps.resources.list()
    expect(times).toHaveLength(2)
    expect(times.every((t) => Number.isFinite(t) && t >= 0)).toBe(true) // each response found its request
    expect(errors).toEqual([404])
  })

  it("onResponse sees the service's own response (its URL, its headers) with the parsed body, not a copy", async () => {
    const { url } = await service()
    const seen: { url: string; requestId: string | null; data: unknown }[] = []
    const tandem = client(url, {
      hooks: {
        onResponse: ({ response }) =>
          void seen.push({ url: response.url, requestId: response.headers.get('x-request-id'), data: response._data }),
      },
    })
    await tandem.support.resources.list({ limit: 5 })
    // A Response rebuilt around a copy of the body has no URL.
    expect(seen).toEqual([
      { url: `${url}/support/v1/resources?limit=5`, requestId: 'req_1', data: { data: [], nextCursor: null } },
    ])
  })

  it('a hook that throws fails the call with a TandemError hook_failed carrying its error; nothing is retried', async () => {
    const { url, seen } = await service()
    const mine = new Error('no tracing context')
    const tandem = client(url, {
      hooks: {
        onRequest: () => {
          throw mine
        },
      },
    })
    const error = await tandem.support.resources.list().catch((e: unknown) => e)
    expect(isTandemError(error)).toBe(true)
    expect(error).toMatchObject({ code: 'hook_failed', cause: mine })
    expect(seen).toHaveLength(0)
  })

  it("an HTTP error carries ofetch's FetchError as its cause, with neither the query string nor the token in it", async () => {
    const { url } = await service([500, 500, 500])
    const tandem = client(url, { retry: false })
    const error = (await tandem.support.conversations.list({ query: 'secret-words' }).catch((e: unknown) => e)) as {
      cause?: { name?: string; message?: string; options?: { headers?: Headers } }
    }
    expect(error).toMatchObject({ name: 'ApiError', status: 500, requestId: 'req_1' })
    expect(error.cause?.name).toBe('FetchError')
    expect(error.cause?.message).not.toContain('secret-words')
    expect(error.cause?.options?.headers?.get('authorization')).toBeNull()
  })
})
