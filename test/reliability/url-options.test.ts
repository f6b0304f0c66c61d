// No key in any URL option (issue 27, fault 8). A raw key in `baseUrl`, a service's `baseUrl`,
// `auth.url` or the realtime `url` used to be sent; worse, the service path was then appended
// inside the query (`/?key=…%2Fsupport%2Fv1%2Fmailboxes`). Now every credential parameter of the
// contract's list (and `user:password@`) is a ValidationError when the client is made, before
// any request, and its message never holds the value; a benign query in a base URL stays a query,
// after the right path, on every request.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, createTokenProvider, isValidationError } from '@tandem/core'
import { DEV_APP, startEmulator, type Emulator } from '@tandem/emulator'
import { createRealtime } from '@tandem/realtime'
import { mintToken } from '@tandem/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { during, waitUntil } from '../utils/wait.js'

const SECRET = 'sk_live_do_not_send_0123456789'
/** Each spelling a credential parameter can take (the contract's CREDENTIAL_PARAMS, as people write them). */
const PARAMS = [
  'key',
  'KEY',
  'api_key',
  'apikey',
  'api-key',
  'apiKey',
  'secret',
  'client_secret',
  'token',
  'access_token',
]

let counting: Server
let countingUrl = ''
/** Every request and upgrade the counting server received. */
const received: string[] = []
let emu: Emulator
const emuUrls: string[] = []

beforeAll(async () => {
  counting = createServer((req: IncomingMessage, res) => {
    received.push(req.url ?? '')
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      req.url?.includes('/token')
        ? JSON.stringify({ token: 'tok_counting', expiresIn: 600 })
        : '{"data":[],"nextCursor":null}',
    )
  })
  counting.on('upgrade', (req: IncomingMessage, socket) => {
    received.push(req.url ?? '')
    socket.destroy()
  })
  await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve))
  countingUrl = `http://127.0.0.1:${(counting.address() as AddressInfo).port}`
  emu = await startEmulator({ apps: [DEV_APP] })
  emu.server.prependListener('request', (req: IncomingMessage) => void emuUrls.push(req.url ?? ''))
  emu.server.prependListener('upgrade', (req: IncomingMessage) => void emuUrls.push(req.url ?? ''))
})
afterAll(async () => {
  await emu?.close()
  await new Promise<void>((resolve) => counting?.close(() => resolve()))
})

const fetchToken = async () => ({ token: 'tok_unused', expiresIn: 600 })

/** Every URL option, given `url`: what makes a client (or provider) with it. */
const OPTIONS: Record<string, (url: string) => unknown> = {
  baseUrl: (url) => createClient({ baseUrl: url, auth: { fetchToken } }),
  'services.maps.baseUrl': (url) => createClient({ services: { maps: { baseUrl: url } }, auth: { fetchToken } }),
  'services.support.baseUrl': (url) => createClient({ services: { support: { baseUrl: url } }, auth: { fetchToken } }),
  'services.realtime.baseUrl': (url) =>
    createClient({ services: { realtime: { baseUrl: url } }, auth: { fetchToken } }),
  'auth.url': (url) => createClient({ auth: { url } }),
  'auth.url (createTokenProvider)': (url) => createTokenProvider({ url }),
  'url (createRealtime)': (url) => createRealtime({ auth: { fetchToken }, url }, { WebSocket }),
  'url (createRealtime, ws://)': (url) =>
    createRealtime({ auth: { fetchToken }, url: url.replace(/^http/, 'ws') }, { WebSocket }),
}

function refusal(make: () => unknown): unknown {
  try {
    const made = make() as { connect?: () => void; close?: () => void } | undefined
    made?.close?.()
    return made
  } catch (e) {
    return e
  }
}

describe('no credential in a URL option', () => {
  it('every URL option × every credential parameter: a ValidationError at construction, nothing sent, no value in the message', async () => {
    const cases: string[] = []
    for (const [option, make] of Object.entries(OPTIONS)) {
      const urls = [
        ...PARAMS.map((p) => `${countingUrl}/realtime?${p}=${SECRET}`),
        `${countingUrl}/realtime?region=eu&key=${SECRET}`, // not first
        `${countingUrl}/realtime?%6Bey=${SECRET}`, // `key`, percent-encoded
        `${countingUrl}/realtime#key=${SECRET}`, // a fragment is never sent, but is still a key in the code
        `http://key_dev:${SECRET}@127.0.0.1:${new URL(countingUrl).port}/realtime`,
      ]
      for (const url of urls) {
        const error = refusal(() => make(url))
        cases.push(option)
        expect(isValidationError(error), `${option}: ${url.replace(SECRET, '…')}`).toBe(true)
        const { message, field, details } = error as { message: string; field: string; details: unknown }
        expect(field).toMatch(/baseUrl|auth\.url|^url$/)
        expect(`${message} ${JSON.stringify(details)} ${String((error as Error).stack)}`).not.toContain(SECRET)
        expect(message).toMatch(/credential|user:password@/)
      }
    }
    expect(cases.length).toBe(Object.keys(OPTIONS).length * (PARAMS.length + 4))
    await during(100) // anything fired by mistake has time to arrive
    expect(received).toEqual([])
  })

  it('the counting server does count: the same options without the key do send', async () => {
    const client = createClient({
      baseUrl: `${countingUrl}?region=eu`,
      auth: { url: `${countingUrl}/token?session=s1` },
      retry: false,
    })
    await client.maps.resources.list({ limit: 1 })
    expect(received).toEqual(['/token?session=s1', '/maps/v1/resources?region=eu&limit=1'])
    received.length = 0
  })
})

describe('parameter and header names that are Object.prototype members', () => {
  it('are sent like any other, from a base URL, a request query and request headers', async () => {
    const heard: string[] = []
    const server = createServer((req, res) => {
      heard.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"nextCursor":null}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const handed: [string, string][][] = []
    try {
      const client = createClient({
        baseUrl: `${url}/?constructor=c&__proto__=p`,
        auth: { fetchToken },
        retry: false,
        // The real fetch, watched: Node's fetch (undici) itself drops a header named __proto__ on
        // the wire, so the headers are checked where Tandem hands them over.
        fetch: (input, init) => {
          handed.push([...new Headers(init?.headers)])
          return fetch(input, init)
        },
      })
      // Computed keys: own properties named __proto__, as JSON.parse or a form would give them.
      const query = { ['__proto__']: 'q', toString: 't', hasOwnProperty: 'h' }
      const headers = { ['__proto__']: 'x', constructor: 'y' }
      await client.request({ service: 'maps', method: 'GET', path: '/v1/resources', query, headers })
      const params = new URL(heard[0]!, url).searchParams
      expect(Object.fromEntries(params)).toEqual({
        constructor: 'c',
        ['__proto__']: 'q', // the request's own value wins a name both have
        toString: 't',
        hasOwnProperty: 'h',
      })
      expect(handed[0]).toEqual(
        expect.arrayContaining([
          ['__proto__', 'x'],
          ['constructor', 'y'],
        ]),
      )
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('a query in a base URL stays a query', () => {
  const token = () =>
    mintToken({
      appId: DEV_APP.appId,
      keyId: DEV_APP.keys[0]!.id,
      secret: DEV_APP.keys[0]!.secret,
      subject: 'url-user',
      scope: ['maps', 'support', 'realtime'],
    })

  it('the client baseUrl: each service path comes before the query, and a request param of the same name wins', async () => {
    const { token: t } = await token()
    emuUrls.length = 0
    const client = createClient({
      baseUrl: `${emu.url}/?tenant=acme&limit=7`,
      auth: { fetchToken: async () => ({ token: t, expiresIn: 600 }) },
    })
    expect(client.baseUrls.support).toBe(`${emu.url}/support?tenant=acme&limit=7`)
    const page = await client.support.mailboxes.list()
    expect(page.data.length).toBeGreaterThan(0)
    await client.maps.resources.list({ limit: 2 })
    expect(emuUrls).toEqual(['/support/v1/mailboxes?tenant=acme&limit=7', '/maps/v1/resources?tenant=acme&limit=2'])
  })

  it('a service baseUrl with a query, and the realtime url: the path goes before it', async () => {
    const { token: t } = await token()
    emuUrls.length = 0
    const client = createClient({
      services: { support: { baseUrl: `${emu.url}/support/?tenant=acme` } },
      baseUrl: emu.url,
      auth: { fetchToken: async () => ({ token: t, expiresIn: 600 }) },
    })
    await client.support.mailboxes.list()
    const rt = createRealtime(
      { auth: { fetchToken: async () => ({ token: t, expiresIn: 600 }) }, url: `${emu.url}/realtime?tenant=acme` },
      { WebSocket },
    )
    try {
      rt.connect()
      await waitUntil(() => rt.state === 'connected', { what: 'realtime connected' })
    } finally {
      rt.close()
    }
    expect(emuUrls).toEqual(['/support/v1/mailboxes?tenant=acme', '/realtime/v1/ws?tenant=acme'])
  })
})
