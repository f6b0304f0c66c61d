// Where an upload's token may end up: never in an error (nor its causes), never sent to an origin
// the client was not given (a Location the service answered with); a token provider's failure
// during an upload is the token error the REST pipeline gives, not a network error.
import { UPLOADS } from '@tandem/contract'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { uploads } from '../../entries/uploads.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'
import { png } from './files.js'

const open: (Emulator | Server)[] = []
afterEach(async () =>
  Promise.all(open.splice(0).map((o) => ('url' in o ? o.close() : new Promise((done) => o.close(done))))),
)

/** Every error of the chain as JSON (cycles cut), with its message and stack. */
function walk(error: unknown): string {
  const out: string[] = []
  for (let e = error, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    const seen = new WeakSet()
    out.push(
      JSON.stringify(e, (_k, v: unknown) => {
        if (typeof v === 'object' && v !== null) {
          if (seen.has(v)) return '[cycle]'
          seen.add(v)
        }
        return v
      }),
      String((e as Error).message),
      String((e as Error).stack),
    )
  }
  return out.join('\n')
}

/** An HTTP proxy to `target` that answers an upload's creation with a Location on `elsewhere`. */
async function locationProxy(target: string, elsewhere: string): Promise<string> {
  const server = createServer((req, res) => {
    const forward = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      const headers = { ...answer.headers }
      if (typeof headers.location === 'string')
        headers.location = `${elsewhere}${new URL(headers.location, target).pathname}`
      res.writeHead(answer.statusCode ?? 502, headers)
      answer.pipe(res)
    })
    req.pipe(forward)
  })
  open.push(server)
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('an upload’s token stays where it belongs', () => {
  it('a connection dropped mid-upload: NetworkError, and no Bearer or token anywhere in it or its causes', async () => {
    const { emu } = await setup()
    emu.faults.latency(50, { service: 'support' })
    const tokens: string[] = []
    const { client } = createClientOfStyle({
      baseUrl: emu.url,
      auth: {
        fetchToken: async () => {
          tokens.push(await emu.mintToken({ subject: 'agent_1', scope: ['support'] }))
          return { token: tokens.at(-1)!, expiresIn: 600 }
        },
      },
      retry: false,
    })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const call = client.support.conversations
      .reply(c!.id, { text: 'dropped', files: [png(UPLOADS.chunkBytes * 4)] })
      .catch((e: unknown) => e)
    await waitUntil(() => (uploads(client).getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes, {
      what: 'a chunk sent',
    })
    emu.faults.dropNext(1, { service: 'support' })
    const error = await call
    expect(error).toMatchObject({ name: 'NetworkError', code: 'network_error' })
    const text = walk(error)
    expect(text).not.toContain('Bearer')
    for (const token of tokens) expect(text).not.toContain(token)
  })

  it('a token endpoint down during an upload: AuthError token_endpoint_unavailable, as the REST pipeline says', async () => {
    const { emu } = await setup()
    emu.faults.latency(50, { service: 'support' })
    const { client } = createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, retry: false })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const call = client.support.conversations
      .reply(c!.id, { text: 'no token', files: [png(UPLOADS.chunkBytes * 4)] })
      .catch((e: unknown) => e)
    await waitUntil(() => (uploads(client).getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes, {
      what: 'a chunk sent',
    })
    emu.faults.tokenEndpoint({ status: 503, count: 10 })
    client.auth.invalidate()
    expect(await call).toMatchObject({ name: 'AuthError', code: 'token_endpoint_unavailable' })
  })

  it('a Location on another origin gets no request (and no token): the upload is refused', async () => {
    const emu = await startEmulator()
    const foreign = await startEmulator()
    open.push(emu, foreign)
    const proxy = await locationProxy(emu.url, foreign.url)
    const { client } = createClientOfStyle({ baseUrl: proxy, auth: { url: `${emu.url}/dev/token` }, retry: false })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const error = await client.support.conversations
      .reply(c!.id, { text: 'elsewhere', files: [png(2000)] })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'upload_url_refused' })
    expect(foreign.log).toEqual([])
  })
})
