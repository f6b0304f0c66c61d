import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTokenHandler, toNodeListener, verifyToken, type AuthorizeResult } from '../index.js'
import { APP, KID, SECRET } from './fixtures.js'

let server: Server
let base = ''
let seen: { url: string; body: string; host: string | null } | undefined

// The structural types must accept node's own req/res without casts.
function mount(listener: (req: IncomingMessage, res: ServerResponse) => void): void {
  server = createServer(listener)
}

const authorize = async (request: Request): Promise<AuthorizeResult> => {
  const body = request.method === 'POST' ? await request.text() : ''
  seen = { url: request.url, body, host: request.headers.get('host') }
  if (request.headers.get('authorization') !== 'Bearer session-ok') return null
  return { subject: 'user_9', scope: ['maps'] }
}

beforeAll(async () => {
  const tokenListener = toNodeListener(createTokenHandler({ appId: APP, keyId: KID, secret: SECRET, authorize }))
  const crashing = toNodeListener(() => Promise.reject(new Error('boom')))
  const large = toNodeListener(async (request) => new Response(String((await request.arrayBuffer()).byteLength)), {
    maxBodyBytes: 1_048_576,
  })
  const cookies = toNodeListener(async () => {
    const headers = new Headers({ 'x-extra': 'yes' })
    headers.append('set-cookie', 'a=1; Path=/')
    headers.append('set-cookie', 'b=2; Path=/')
    return new Response('hello', { status: 202, headers })
  })
  mount((req, res) => {
    if (req.url?.startsWith('/crash')) crashing(req, res)
    else if (req.url?.startsWith('/large')) large(req, res)
    else if (req.url?.startsWith('/cookies')) cookies(req, res)
    else tokenListener(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('toNodeListener on a real node:http server', () => {
  it('serves a token that verifies, with the body and an absolute URL passed through', async () => {
    const response = await fetch(`${base}/api/tandem-token?x=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer session-ok', 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const { token, expiresIn } = (await response.json()) as { token: string; expiresIn: number }
    expect(expiresIn).toBe(600)
    await expect(verifyToken(token, { keys: { [KID]: SECRET }, appId: APP })).resolves.toMatchObject({ sub: 'user_9' })
    expect(seen).toEqual({ url: `${base}/api/tandem-token?x=1`, body: '{"hello":"world"}', host: base.slice(7) })
  })

  it('passes refusals and 405 through with their JSON bodies', async () => {
    const refused = await fetch(`${base}/api/tandem-token`, { method: 'POST' })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('content-type')).toBe('application/json')
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized')
    const wrong = await fetch(`${base}/api/tandem-token`, { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, POST, OPTIONS')
  })

  it('answers 405 (not 500) to TRACE, a method the Fetch API cannot carry', async () => {
    // fetch() itself refuses these methods, so a raw node:http request sends them.
    const send = (method: string) =>
      new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
        const req = request(`${base}/api/tandem-token`, { method }, (res) => {
          res.resume()
          resolve({ status: res.statusCode ?? 0, allow: res.headers.allow })
        })
        req.on('error', reject)
        req.end()
      })
    await expect(send('TRACE')).resolves.toEqual({ status: 405, allow: 'GET, POST, OPTIONS' })
  })

  it('answers 413 for a body over 64 KiB, declared or streamed, without hanging the client', async () => {
    const response = await fetch(`${base}/api/tandem-token`, { method: 'POST', body: 'x'.repeat(65_537) })
    expect(response.status).toBe(413)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large')
    // Far larger than socket buffers: the server must close rather than leave the upload stuck.
    const big = await fetch(`${base}/api/tandem-token`, { method: 'POST', body: new Uint8Array(3_000_000) })
    expect(big.status).toBe(413)
    // Without Content-Length (chunked), the cap is enforced while streaming.
    const chunk = new Uint8Array(65_536)
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const chunked = await fetch(`${base}/api/tandem-token`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(chunked.status).toBe(413)
    // A body of exactly the cap is fine.
    const ok = await fetch(`${base}/api/tandem-token`, { method: 'POST', body: 'x'.repeat(65_536) })
    expect(ok.status).toBe(401)
  })

  it('takes a larger body cap as an option (for a webhook handler)', async () => {
    const body = 'x'.repeat(200_000)
    const ok = await fetch(`${base}/large`, { method: 'POST', body })
    expect(await ok.text()).toBe('200000')
    const tooBig = await fetch(`${base}/large`, { method: 'POST', body: 'x'.repeat(1_048_577) })
    expect(tooBig.status).toBe(413)
  })

  it('answers 500 when the handler fails, and keeps serving', async () => {
    const response = await fetch(`${base}/crash`)
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({
      error: { code: 'internal_error', message: 'The request failed.', status: 500 },
    })
    expect((await fetch(`${base}/api/tandem-token`)).status).toBe(401)
  })

  it('writes status, headers (Set-Cookie kept separate) and body', async () => {
    const response = await fetch(`${base}/cookies`)
    expect(response.status).toBe(202)
    expect(response.headers.get('x-extra')).toBe('yes')
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/'])
    expect(await response.text()).toBe('hello')
  })

  it('falls back to localhost for a missing or hostile Host header', async () => {
    const listener = toNodeListener(async (request) => new Response(request.url))
    const ends: string[] = []
    for (const host of [undefined, 'evil.example/@x', 'a b']) {
      const body = await new Promise<string>((resolve) => {
        const req = Object.assign((async function* () {})(), {
          method: 'GET',
          url: '/p?q=1',
          headers: host ? { host } : {},
        })
        listener(req, {
          statusCode: 0,
          setHeader: () => undefined,
          end: (chunk) => resolve(new TextDecoder().decode(chunk as Uint8Array)),
        })
      })
      ends.push(body)
    }
    expect(ends).toEqual(Array(3).fill('http://localhost/p?q=1'))
  })
})
