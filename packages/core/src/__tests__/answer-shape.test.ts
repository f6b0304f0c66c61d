// `shape` on a request: the answer is checked against the contract's line where its status and
// request id are known, and one that does not fit is an `ApiError` `bad_response`, once (no retry).
import { PLACE_AUTOCOMPLETE_FIELDS } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { createClient, isValidationError } from '../index.js'

/** A client whose every request is answered by `answer` (a fresh Response each time), counted. */
function stub(answer: () => Response) {
  let requests = 0
  const client = createClient({
    baseUrl: 'http://127.0.0.1:9',
    auth: { fetchToken: async () => ({ token: 'tok', expiresIn: 600 }) },
    fetch: async () => (requests++, answer()),
  })
  return { client, requests: () => requests }
}
const json =
  (body: unknown, status = 200) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_shape' },
    })
const call = { service: 'maps', method: 'GET', path: '/v1/places:autocomplete' } as const

describe('RequestOptions.shape', () => {
  it('an answer that fits resolves as it is', async () => {
    const body = { suggestions: [], complete: true }
    const { client } = stub(json(body))
    await expect(client.request({ ...call, shape: PLACE_AUTOCOMPLETE_FIELDS })).resolves.toEqual(body)
  })

  it.each([
    ['no suggestions', {}, '$.suggestions'],
    ['suggestions: null', { suggestions: null, complete: true }, '$.suggestions'],
    ['a number for mainText', { suggestions: [{ mainText: 42 }], complete: true }, '$.suggestions[0].id'],
    ['a string', 'lol', '$'],
  ])('%s: bad_response with the status and request id, and no retry', async (_name, body, wrong) => {
    const { client, requests } = stub(json(body))
    const error = await client.request({ ...call, shape: PLACE_AUTOCOMPLETE_FIELDS }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ApiError', code: 'bad_response', status: 200, requestId: 'req_shape' })
    expect((error as Error).message).toContain(wrong)
    expect(requests()).toBe(1)
  })

  it('a function names what is wrong, given the request id', async () => {
    const ids: (string | undefined)[] = []
    const { client } = stub(json({ nextCursor: 'again' }))
    const shape = (answer: unknown, requestId: string | undefined) => {
      ids.push(requestId)
      return (answer as { nextCursor?: unknown }).nextCursor === 'again' ? '$.nextCursor' : undefined
    }
    await expect(client.request({ ...call, shape })).rejects.toMatchObject({ code: 'bad_response' })
    expect(ids).toEqual(['req_shape'])
  })

  it.each([null, 'lol', 5, [], { data: null }, { data: [{ id: 1 }], nextCursor: null }, { data: [], nextCursor: 7 }])(
    'a list page %j is bad_response (never a TypeError), also when iterating',
    async (body) => {
      const { client } = stub(json(body))
      await expect(client.support.agents.list()).rejects.toMatchObject({ name: 'ApiError', code: 'bad_response' })
      const walk = async () => {
        for await (const _ of client.support.conversations.threads('cnv_1')) void _
      }
      await expect(walk()).rejects.toMatchObject({ name: 'ApiError', code: 'bad_response', requestId: 'req_shape' })
    },
  )

  it('a call with a shape expects a body: a 204 is bad_response too', async () => {
    const { client } = stub(() => new Response(null, { status: 204 }))
    await expect(client.request({ ...call, shape: 'a:string' })).rejects.toMatchObject({ code: 'bad_response' })
    await expect(client.request({ ...call })).resolves.toBe(undefined)
  })

  it('a malformed line is refused before anything is sent', async () => {
    const { client, requests } = stub(json({}))
    for (const shape of ['a', 'a:', 42]) {
      const error = await client.request({ ...call, shape: shape as string }).catch((e: unknown) => e)
      expect(isValidationError(error) && error.field, String(shape)).toBe('shape')
    }
    expect(requests()).toBe(0)
  })

  it('an error status is still the service’s error, whatever the shape', async () => {
    const { client } = stub(json({ error: { code: 'not_found', message: 'no' } }, 404))
    await expect(client.request({ ...call, shape: PLACE_AUTOCOMPLETE_FIELDS })).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    })
  })
})
