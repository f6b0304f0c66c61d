// Regressions found by the reliability suite's fuzzing (test/reliability/fuzz.test.ts): answers
// and inputs that used to escape as a TypeError, or to be sent as `[object Object]`.
import { describe, expect, it } from 'vitest'
import { createClient, isApiError, isValidationError } from '../index.js'

/** A client whose every request is answered by `answer` and recorded. */
function stub(answer: () => Response) {
  const urls: string[] = []
  const client = createClient({
    baseUrl: 'http://127.0.0.1:9',
    auth: { fetchToken: async () => ({ token: 'tok', expiresIn: 600 }) },
    retry: false,
    fetch: async (input) => {
      urls.push(String(input))
      return answer()
    },
  })
  return { client, urls }
}

const json =
  (body: unknown, status = 200) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('hostile answers and inputs', () => {
  it('a route answer without a polyline is an ApiError bad_response, not a TypeError', async () => {
    for (const body of [{}, 5, null, { polyline: 7 }]) {
      const { client } = stub(json(body))
      const e = await client.maps
        .computeRoute({ origin: { lat: 0, lng: 0 }, destination: { lat: 1, lng: 1 }, mode: 'drive' })
        .catch((x: unknown) => x)
      expect(isApiError(e) && e.code === 'bad_response', String(e)).toBe(true)
    }
  })

  it('a place search answered with no page (204, or not a list) is an ApiError, also when iterating', async () => {
    const { client } = stub(() => new Response(null, { status: 204 }))
    const e = await client.maps.searchPlaces({ query: 'a' }).catch((x: unknown) => x)
    expect(isApiError(e) && e.code === 'bad_response', String(e)).toBe(true)
    const { client: c2 } = stub(json({ results: [] }))
    const iterate = async () => {
      for await (const _ of c2.maps.searchPlaces({ query: 'a' })) void _
    }
    const e2 = await iterate().catch((x: unknown) => x)
    expect(isApiError(e2), String(e2)).toBe(true)
  })

  it('query values that are objects, NaN or Infinity are refused before sending, never sent as text', async () => {
    const { client, urls } = stub(json({ data: [], nextCursor: null }))
    for (const bad of [{ a: 1 }, Number.NaN, Infinity, [1, 2]]) {
      const e = await client.realtime.channels({ prefix: 'a', extra: bad } as never).catch((x: unknown) => x)
      expect(isValidationError(e) && e.field === 'extra', String(e)).toBe(true)
      const e2 = await client.support.resources.list({ filter: bad } as never).catch((x: unknown) => x)
      expect(isValidationError(e2), String(e2)).toBe(true)
    }
    expect(urls).toEqual([])
  })

  it('null where options or params are optional: a ValidationError or the defaults, never a TypeError', async () => {
    const { client, urls } = stub(
      json({ data: [], nextCursor: null, epoch: 'e', offset: 0, messages: [], complete: true }),
    )
    await expect(client.support.docs.collections(null as never)).resolves.toMatchObject({ data: [] })
    const e = await client.support.docs.collections(5 as never).catch((x: unknown) => x)
    expect(isValidationError(e) && e.field === 'params', String(e)).toBe(true)
    await expect(client.realtime.history('ch:1', null as never)).resolves.toMatchObject({ complete: true })
    expect(urls).toHaveLength(2)
  })
})
