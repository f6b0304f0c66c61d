// The contract states every query parameter `allowEmptyValue: false`, and the services refuse
// `?cursor=` or `?status=` (400 `invalid_parameter`). So the SDK never sends one: an empty string
// value is a ValidationError naming the field, before anything is sent, whichever way the query
// is built (a typed collection's filter, a page cursor, the realtime channel prefix, a raw request).
import { describe, expect, it } from 'vitest'
import { isValidationError } from '../index.js'
import { collection } from '../entries/client.js'
import { setup } from './helpers.js'

describe('an empty query value', () => {
  it('is a ValidationError naming the field, and no request leaves', async () => {
    const { emu, client } = await setup()
    const conversations = collection(client, 'support', 'conversations')
    const attempts: [string, () => Promise<unknown>][] = [
      ['status', () => conversations.list({ status: '' as never, limit: 2 })],
      ['cursor', () => conversations.list({ cursor: '', limit: 2 })],
      ['cursor', () => client.support.resources.list({ cursor: '' })],
      ['prefix', () => client.realtime.channels({ prefix: '' })],
      [
        'tag',
        () => client.request({ service: 'support', method: 'GET', path: '/v1/conversations', query: { tag: '' } }),
      ],
    ]
    const before = emu.stats.requests
    for (const [field, attempt] of attempts) {
      const error = await attempt().catch((e: unknown) => e)
      expect(isValidationError(error) && error.field, String(error)).toBe(field)
    }
    expect(emu.stats.requests - before).toBe(0)
  })

  it('is what the service refuses; leaving the parameter out is what it takes', async () => {
    const { emu, client } = await setup()
    const token = await emu.mintToken({ scope: ['support:read'] })
    for (const query of ['cursor=', 'status=', 'limit=']) {
      const res = await fetch(`${emu.url}/support/v1/conversations?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      expect(res.status, query).toBe(400)
      const body = (await res.json()) as { error: { code: string; details: { message: string }[] } }
      expect(body.error.code).toBe('invalid_parameter')
      expect(body.error.details[0]!.message).toBe('must not be empty')
    }
    const page = await collection(client, 'support', 'conversations').list({ limit: 2 })
    expect(page.data).toHaveLength(2)
  })
})

describe('a credential in a query', () => {
  it('is a ValidationError naming the parameter, without its value, and no request leaves', async () => {
    const { emu, client } = await setup()
    const token = await client.auth.getToken()
    const before = emu.stats.requests
    for (const name of ['token', 'access_token', 'key', 'apiKey', 'client-secret']) {
      const error = await client
        .request({ service: 'maps', method: 'GET', path: '/v1/resources', query: { [name]: token } })
        .catch((e: unknown) => e)
      expect(isValidationError(error) && error.field, String(error)).toBe(name)
      expect(String((error as Error).message)).not.toContain(token)
    }
    expect(emu.stats.requests - before).toBe(0)
  })
})
