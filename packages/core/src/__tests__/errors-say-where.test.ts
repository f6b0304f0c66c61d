// Every error says what went wrong and where (issue 18, findings 2 and 3): a relative token URL
// on a server is refused at once, not retried as an outage; a network error names the host,
// the service and the path; the token endpoint's errors name it. Never a query string or token.
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createClient, isAuthError, isNetworkError, isValidationError } from '../index.js'
import { setup } from './helpers.js'

/** A port nothing listens on (opened, then closed). */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('errors say where', () => {
  it('a relative token URL with no page to resolve it is a ValidationError at construction', () => {
    let error: unknown
    try {
      createClient({ auth: { url: '/api/tandem-token?key=do-not-echo' } })
    } catch (e) {
      error = e
    }
    expect(isValidationError(error)).toBe(true)
    expect(error).toMatchObject({ field: 'auth.url' })
    expect(String((error as Error).message)).toMatch(/relative \(\/api\/tandem-token\).*absolute URL/)
    expect(String((error as Error).message)).not.toContain('do-not-echo')
  })

  it('a network error names the method, host, service and path, never the query', async () => {
    const port = await deadPort()
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      auth: { fetchToken: async () => ({ token: 'tok_where', expiresIn: 600 }) },
      retry: false,
    })
    const error = await client.maps.resources.list({ limit: 1, cursor: 'secret-cursor' }).catch((e: unknown) => e)
    expect(isNetworkError(error)).toBe(true)
    const message = (error as Error).message
    expect(message).toContain(`GET 127.0.0.1:${port}/maps/v1/resources`)
    expect(message).toContain('maps')
    expect(message).not.toMatch(/secret-cursor|tok_where|\?/)
  })

  it("the token endpoint's errors name it by host and path, never by its query", async () => {
    const { emu } = await setup()
    const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/no-such-endpoint?sig=abc123` } })
    const error = await client.maps.resources.list().catch((e: unknown) => e)
    expect(isAuthError(error)).toBe(true)
    const host = new URL(emu.url).host
    expect((error as Error).message).toContain(`Token endpoint ${host}/no-such-endpoint answered 404`)
    expect((error as Error).message).not.toContain('abc123')
  })
})
