// Fuzzing with fast-check (fixed seed, bounded runs):
//  1. random and mutated server frames (truncated JSON, wrong types, huge numbers, deep nesting,
//     oversized and binary frames, invalid UTF-8), and mutated replies to the client's own
//     requests, from a raw `ws` server → only RealtimeError events and rejections, no uncaught
//     exception, no unhandled rejection, and the client still works afterwards;
//  2. random and mutated HTTP answers (status, headers, bodies) from a raw node:http server, to
//     the services and to the token endpoint → every failure a typed TandemError;
//  3. random inputs to every public method (maps, support, realtime REST, collections, realtime
//     channels) → a ValidationError before anything is sent, or a well-formed request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createClient,
  createTokenProvider,
  isTandemError,
  isApiError,
  isValidationError,
  RealtimeError,
  TandemError,
  type TandemClient,
} from '@tandem/core'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { createRealtime, type Channel, type Realtime } from '@tandem/realtime'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws'
import { watchProcess } from '../utils/harness.js'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { waitUntil, within } from '../utils/wait.js'
import { history } from '@tandem/realtime/history'
import { presence } from '@tandem/realtime/presence'

const FILE = 'fuzz'
const SEED = seedFrom(0xf022)
const at = replay(SEED, FILE)
const RUNS = Number(process.env.FUZZ_RUNS ?? 150)
const figures: Record<string, number> = {}

afterAll(() =>
  console.info(
    `[fuzz] ${Object.entries(figures)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')}; ${at}`,
  ),
)

/** A typed failure of ours, not a TypeError or anything else that escaped. */
const typed = (e: unknown): boolean => isTandemError(e) && e instanceof TandemError

// ---------------------------------------------------------------------------------------------
// 1. The realtime client against a raw WebSocket server that lies.

const EPOCH = 'ep_fuzz'
const TEMPLATES: Record<string, unknown>[] = [
  {
    type: 'message',
    channel: 'fz:1',
    event: 'e',
    data: { a: 1 },
    offset: 1,
    epoch: EPOCH,
    messageId: 'm1',
    clientId: 'x',
    ts: 1,
  },
  {
    type: 'presence.event',
    channel: 'fz:1',
    action: 'enter',
    member: { clientId: 'c', connectionId: 'k', data: null },
    ts: 1,
  },
  { type: 'heartbeat', ts: 1 },
  { type: 'error', error: { code: 'internal', message: 'm', temporary: true, requestId: 'r' } },
  { type: 'subscribed', id: 2, channels: [{ channel: 'fz:1', epoch: EPOCH, offset: 0, recovered: true, missed: [] }] },
  { type: 'history', id: 3, channel: 'fz:1', epoch: EPOCH, offset: 0, messages: [], complete: true },
  { type: 'ack', id: 4, channel: 'fz:1', offset: 1, epoch: EPOCH, messageId: 'm', duplicate: false },
  { type: 'presence.members', id: 5, channel: 'fz:1', members: [] },
  {
    type: 'connected',
    id: 1,
    connectionId: 'conn_x',
    heartbeatMs: 60_000,
    maxMessageBytes: 65_536,
    expiresIn: 600,
    resumed: false,
  },
  { type: 'authed', id: 6, expiresIn: 600 },
  { type: 'pong', id: 7 },
  { type: 'ok', id: 8 },
  { type: 'error', id: 9, error: { code: 'rate_limited', message: 'm', temporary: true, retryAfterMs: 5 } },
]

const hugeNumber = fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -0, 2 ** 53, 1e-320, -1)
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), hugeNumber, fc.string({ maxLength: 20 }))

/** A template with one field replaced, deleted or retyped. */
const mutated = fc
  .tuple(
    fc.constantFrom(...TEMPLATES),
    fc.nat(),
    fc.oneof(anyJson, fc.constant(undefined)),
    fc.integer({ min: 1, max: 40 }),
  )
  .map(([t, pick, value, id]) => {
    const frame: Record<string, unknown> = { ...t }
    const keys = Object.keys(frame)
    const key = keys[pick % keys.length]!
    if (value === undefined) delete frame[key]
    else frame[key] = value
    if ('id' in t && pick % 3 === 0) frame.id = id // aimed at a request that may be waiting
    return JSON.stringify(frame)
  })

type Wire = { text: string } | { binary: Buffer } | { badUtf8: Buffer }

const wire = fc.oneof(
  { weight: 6, arbitrary: mutated.map((text) => ({ text })) },
  // Truncated JSON.
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom(...TEMPLATES), fc.nat()).map(([t, n]) => {
      const s = JSON.stringify(t)
      return { text: s.slice(0, n % s.length) }
    }),
  },
  // Random text and JSON values that are not frames.
  { weight: 2, arbitrary: fc.string({ maxLength: 60 }).map((text) => ({ text })) },
  { weight: 2, arbitrary: anyJson.map((v) => ({ text: JSON.stringify(v) ?? 'undefined' })) },
  // Huge numbers written as text (1e400 parses to Infinity).
  {
    weight: 1,
    arbitrary: fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890').map((n) => ({
      text: `{"type":"message","channel":"fz:1","event":"e","offset":${n},"epoch":"${EPOCH}","messageId":"m"}`,
    })),
  },
  // Deep nesting, as a whole frame and inside `data`.
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((d) => ({
      text: `{"type":"message","channel":"fz:1","event":"e","offset":2,"epoch":"${EPOCH}","messageId":"m","data":${'['.repeat(d)}${']'.repeat(d)}}`,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1_000, max: 100_000 }).map((d) => ({ text: '{"a":'.repeat(d) + '1' + '}'.repeat(d) })),
  },
  // Binary frames and text frames with invalid UTF-8 (the socket closes with 1007: the client must reconnect).
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((b) => ({ binary: Buffer.from(b) })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), Buffer.from('{"type":"heartbeat","x":"\xc3\x28"}', 'latin1'))
      .map((b) => ({ badUtf8: b })),
  },
)

/** A reply to the client's own request, mutated (same id): does the client trust it? */
const hijack = fc.option(
  fc.record({
    request: fc.constantFrom('history', 'publish', 'presence.get'),
    reply: fc
      .tuple(fc.constantFrom(...TEMPLATES.filter((t) => 'id' in t)), fc.nat(), anyJson)
      .map(([t, pick, value]) => {
        const frame: Record<string, unknown> = { ...t }
        const keys = Object.keys(frame).filter((k) => k !== 'id')
        if (pick % 2) frame[keys[pick % keys.length]!] = value
        return frame
      }),
  }),
  { freq: 4 },
)

interface FuzzServer {
  url: string
  send(w: Wire): void
  arm(h: { request: string; reply: Record<string, unknown> } | null): void
  sockets(): number
  frames: number
  close(): Promise<void>
}

/** Plays the service correctly (handshake, subscribe, history, publish, presence), except for what the test injects. */
async function fuzzServer(): Promise<FuzzServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  let current: ServerSocket | undefined
  let armed: { request: string; reply: Record<string, unknown> } | null = null
  let offset = 0
  let opened = 0
  const state = { frames: 0 }
  wss.on('connection', (ws) => {
    opened++
    current = ws
    ws.on('error', () => {})
    ws.on('message', (raw) => {
      let f: Record<string, unknown>
      try {
        f = JSON.parse(String(raw))
      } catch {
        return
      }
      const id = f.id
      const reply = (o: Record<string, unknown>) => ws.send(JSON.stringify({ id, ...o }))
      if (armed && f.type === armed.request) {
        const h = armed
        armed = null
        return void ws.send(JSON.stringify({ ...h.reply, id }))
      }
      switch (f.type) {
        case 'connect':
          return reply({
            type: 'connected',
            connectionId: 'conn_fuzz',
            heartbeatMs: 60_000,
            maxMessageBytes: 65_536,
            expiresIn: 600,
            resumed: false,
          })
        case 'subscribe':
          return reply({
            type: 'subscribed',
            channels: (f.channels as { channel: string }[]).map((c) => ({
              channel: c.channel,
              epoch: EPOCH,
              offset,
              recovered: true,
              missed: [],
            })),
          })
        case 'unsubscribe':
          return reply({ type: 'unsubscribed', channels: f.channels })
        case 'history':
          return reply({ type: 'history', channel: f.channel, epoch: EPOCH, offset, messages: [], complete: true })
        case 'publish':
          return reply({
            type: 'ack',
            channel: f.channel,
            offset: ++offset,
            epoch: EPOCH,
            messageId: `m${offset}`,
            duplicate: false,
          })
        case 'presence.get':
          return reply({ type: 'presence.members', channel: f.channel, members: [] })
        case 'auth':
          return reply({ type: 'authed', expiresIn: 600 })
        case 'ping':
          return reply({ type: 'pong' })
        default:
          return reply({ type: 'ok' })
      }
    })
  })
  const port = (wss.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    send(w) {
      const ws = current
      if (!ws || ws.readyState !== ws.OPEN) return
      state.frames++
      if ('text' in w) ws.send(w.text)
      else if ('binary' in w) ws.send(w.binary, { binary: true })
      else ws.send(w.badUtf8, { binary: false })
    },
    arm: (h) => void (armed = h),
    sockets: () => opened,
    get frames() {
      return state.frames
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate()
        wss.close(() => resolve())
      }),
  }
}

describe('fuzz: server frames to @tandem/realtime', () => {
  it(`${RUNS} runs of random and mutated frames: RealtimeErrors only, nothing uncaught, the client keeps working`, async () => {
    printSeedOnFailure(SEED, FILE)
    const server = await fuzzServer()
    const watch = watchProcess()
    const rt = createRealtime(
      {
        auth: { fetchToken: async () => ({ token: 'not-checked-here', expiresIn: 600 }) },
        url: `${server.url}/realtime`,
      },
      {
        WebSocket,
        backoff: { baseMs: 2, capMs: 10 },
        requestTimeoutMs: 150,
      },
    )
    const wrong: unknown[] = []
    const errors: string[] = []
    rt.on('error', (e) => {
      errors.push(e.code)
      if (!(e instanceof RealtimeError)) wrong.push(e)
    })
    const ch = rt.channel('fz:1')
    ch.on('error', (e) => void (e instanceof RealtimeError || wrong.push(e)))
    let delivered = 0
    let off = ch.subscribe(() => void delivered++)
    let refailed = 0
    presence(ch).subscribe(() => {})
    try {
      await waitUntil(() => ch.state === 'subscribed', { what: `subscribed; ${at}` })
      let rejections = 0
      await fc.assert(
        fc.asyncProperty(fc.array(wire, { minLength: 1, maxLength: 8 }), hijack, async (frames, h) => {
          for (const w of frames) server.send(w)
          server.arm(h)
          // Whatever the frames did, the client answers for what it promised: each call settles,
          // with a value or a typed error.
          const calls: Promise<unknown>[] = [
            history(ch, { timeoutMs: 250 }),
            ch.publish('e', { x: 1 }, { timeoutMs: 250 }),
            presence(ch).get({ timeoutMs: 250 }),
          ]
          const settled = await within(Promise.allSettled(calls), 5_000, `requests settle; ${at}`)
          for (const s of settled) {
            if (s.status === 'rejected') {
              rejections++
              if (!typed(s.reason))
                throw new Error(`a request rejected with an untyped error: ${String(s.reason)}; ${at}`)
            }
          }
          server.arm(null)
          // A subscribe answered with garbage leaves the channel failed (reported); the app subscribes again.
          if (ch.state === 'failed') {
            refailed++
            off()
            off = ch.subscribe(() => void delivered++)
          }
          if (wrong.length) throw new Error(`an error event that is not a RealtimeError: ${String(wrong[0])}; ${at}`)
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      )
      // One oversized frame (beyond maxInboundChars), once: reported, not parsed.
      server.send({ text: `{"type":"heartbeat","pad":"${'x'.repeat(16 * 1024 * 1024)}"}` })
      // Still usable: a publish is acknowledged and a message delivered.
      const ack = await within(ch.publish('e', { final: true }), 5_000, `a publish after the fuzzing; ${at}`)
      expect(typeof ack.offset, at).toBe('number')
      expect(await within(history(ch), 5_000, `history after the fuzzing; ${at}`), at).toMatchObject({
        epoch: EPOCH,
        complete: true,
      })
      await waitUntil(() => errors.includes('frame_too_large'), { what: `the oversized frame reported; ${at}` })
      expect(watch.uncaught, `uncaught exceptions; ${at}`).toEqual([])
      expect(watch.unhandled, `unhandled rejections; ${at}`).toEqual([])
      figures['ws frames fuzzed'] = server.frames
      figures['ws error events'] = errors.length
      figures['ws reconnects'] = server.sockets() - 1
      figures['ws request rejections (typed)'] = rejections
      figures['ws messages delivered'] = delivered
      figures['ws channel failures (garbage subscribe replies)'] = refailed
    } finally {
      watch.stop()
      rt.close()
      await server.close()
    }
  })
})

// ---------------------------------------------------------------------------------------------
// 2. The HTTP pipeline against a raw node:http server that lies.

interface Answer {
  status: number
  contentType: string | undefined
  retryAfter: string | undefined
  rateLimit: [string, string] | undefined
  body: Buffer
}

const plausible = [
  { data: [{ id: 'a', name: 'A' }], nextCursor: 'c1' },
  { results: [], polyline: '_p~iF~ps|U_ulLnnqC', legs: [] },
  { token: 'tok', expiresIn: 600 },
  { error: { code: 'x', message: 'm', status: 400, requestId: 'r' } },
  { offset: 1, epoch: 'e', messageId: 'm', duplicate: false },
]
const answerBody = fc.oneof(
  fc.constantFrom(...plausible).map((b) => Buffer.from(JSON.stringify(b))),
  fc.tuple(fc.constantFrom(...plausible), fc.nat()).map(([b, n]) => {
    const s = JSON.stringify(b)
    return Buffer.from(s.slice(0, n % s.length))
  }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v) ?? '')),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
  fc.constantFrom(
    Buffer.from('<html><body>Bad gateway</body></html>'),
    Buffer.alloc(0),
    Buffer.from([0xff, 0xfe, 0x7b]),
    Buffer.from('{"data":' + '['.repeat(50_000)),
  ),
  fc.constant(null).map(() => Buffer.from(JSON.stringify({ data: 'x'.repeat(2 * 1024 * 1024) }))),
)
const answer: fc.Arbitrary<Answer> = fc
  .record({
    status: fc.oneof(
      fc.constantFrom(200, 201, 204, 400, 401, 403, 404, 408, 409, 422, 425, 429, 500, 502, 503, 504),
      fc.integer({ min: 200, max: 599 }),
    ),
    contentType: fc.option(
      fc.constantFrom('application/json', 'text/html', 'application/json; charset=latin1', 'text/plain', ''),
      { nil: undefined },
    ),
    retryAfter: fc.option(
      fc.oneof(
        fc.constantFrom('0', '1', '-1', '1e9', 'soon', 'Wed, 21 Oct 2015 07:28:00 GMT', '0.01'),
        fc.string({ maxLength: 8 }),
      ),
      { nil: undefined },
    ),
    rateLimit: fc.option(
      fc.tuple(fc.constantFrom('-5', '0', 'NaN', '1e99', 'x', '3'), fc.constantFrom('-1', '0', '999999', 'abc', '2')),
      { nil: undefined },
    ),
    body: answerBody,
  })
  .filter((a) => !(a.status >= 300 && a.status < 400)) // a redirect without Location is fine, with one fetch would follow it

/** A raw HTTP server: answers every request with the current answer (set per run). */
async function lyingServer(): Promise<{ url: string; set(a: Answer): void; requests: number; close(): Promise<void> }> {
  let current: Answer | undefined
  let requests = 0
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests++
    req.resume()
    const a = current
    if (!a) return void res.end()
    const headers: Record<string, string> = {}
    if (a.contentType !== undefined) headers['content-type'] = a.contentType
    if (a.retryAfter !== undefined && /^[\x20-\x7e]*$/.test(a.retryAfter)) headers['retry-after'] = a.retryAfter
    if (a.rateLimit) {
      headers['ratelimit-limit'] = a.rateLimit[0]
      headers['ratelimit-remaining'] = a.rateLimit[1]
    }
    res.writeHead(a.status, headers)
    res.end(a.status === 204 || a.status === 304 ? undefined : a.body)
  })
  server.on('clientError', (_e, socket) => socket.destroy())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (a) => void (current = a),
    get requests() {
      return requests
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Every public call with valid inputs; the answers are what is fuzzed. */
const CALLS: [string, (c: TandemClient) => Promise<unknown>][] = [
  ['maps.geocode', (c) => c.maps.geocode({ query: 'Lisbon' })],
  [
    'maps.computeRoute',
    (c) => c.maps.computeRoute({ origin: { lat: 38.7, lng: -9.1 }, destination: { placeId: 'p1' }, mode: 'drive' }),
  ],
  [
    'maps.searchPlaces',
    async (c) => {
      let n = 0
      for await (const _ of c.maps.searchPlaces({ query: 'a', limit: 5 }).pages()) if (++n >= 3) break
    },
  ],
  ['maps.validateAddress', (c) => c.maps.validateAddress({ regionCode: 'PT', addressLines: ['Rua 1'] })],
  ['maps.getMapView', (c) => c.maps.getMapView({ center: { lat: 0, lng: 0 }, zoom: 3 })],
  ['support.conversations.list', (c) => c.support.conversations.list({ status: 'active', limit: 10 })],
  [
    'support.conversations.create',
    (c) => c.support.conversations.create({ mailboxId: 'mb', subject: 's', customer: { email: 'a@b.co' }, text: 'hi' }),
  ],
  ['support.conversations.update', (c) => c.support.conversations.update('cv1', { tags: ['x'] })],
  ['support.conversations.reply', (c) => c.support.conversations.reply('cv1', { text: 'hi' })],
  [
    'support.conversations.threads',
    async (c) => {
      let n = 0
      for await (const _ of c.support.conversations.threads('cv1')) if (++n >= 5) break
    },
  ],
  ['support.docs.search', (c) => c.support.docs.search({ query: 'reset' })],
  ['support.mailboxes.get', (c) => c.support.mailboxes.get('mb1')],
  ['realtime.publish', (c) => c.realtime.publish('ch:1', 'ev', { a: 1 })],
  ['realtime.history', (c) => c.realtime.history('ch:1', { since: { epoch: 'e', offset: 1 }, limit: 10 })],
  ['realtime.presence', (c) => c.realtime.presence('ch:1')],
  ['realtime.channels', (c) => c.realtime.channels({ prefix: 'ch', limit: 5 })],
  ['resources.list', (c) => c.support.resources.list({ limit: 3 })],
  ['resources.get', (c) => c.maps.resources.get('r1')],
  ['resources.create', (c) => c.maps.resources.create({ name: 'x' })],
  ['resources.update', (c) => c.maps.resources.update('r1', { name: 'y' })],
  ['resources.remove', (c) => c.maps.resources.remove('r1')],
  ['request', (c) => c.request({ service: 'support', method: 'GET', path: '/v1/anything' })],
]

describe('fuzz: HTTP answers to @tandem/core', () => {
  it(`${RUNS * 2} runs of random statuses, headers and bodies: typed TandemErrors only`, async () => {
    printSeedOnFailure(SEED, FILE)
    const server = await lyingServer()
    const watch = watchProcess()
    const failures: Record<string, number> = {}
    const retry = { limit: 1, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 20 }
    const services = {
      maps: { rateLimit: false as const },
      support: { rateLimit: false as const },
      realtime: { rateLimit: false as const },
    }
    const fixed = createClient({
      baseUrl: server.url,
      auth: { fetchToken: async () => ({ token: 'tok', expiresIn: 600 }) },
      retry,
      services,
      timeoutMs: 3_000,
    })
    let calls = 0
    try {
      await fc.assert(
        fc.asyncProperty(
          answer,
          fc.integer({ min: 0, max: CALLS.length - 1 }),
          fc.boolean(),
          async (a, which, viaEndpoint) => {
            server.set(a)
            // Either the services lie, or the token endpoint does (a fresh client each time: no cool-down carried over).
            // (Its own provider with zero jitter, so the endpoint's three attempts cost no backoff time.)
            const client = viaEndpoint
              ? createClient({
                  baseUrl: server.url,
                  auth: createTokenProvider({ url: `${server.url}/token` }, { random: () => 0 }),
                  retry,
                  services,
                  timeoutMs: 3_000,
                })
              : fixed
            const [name, call] = CALLS[which]!
            calls++
            try {
              await within(call(client), 10_000, `${name} settles; ${at}`)
            } catch (e) {
              if (!typed(e))
                throw new Error(`${name} failed with an untyped error for ${describeAnswer(a)}: ${String(e)}; ${at}`, {
                  cause: e,
                })
              const code = (e as TandemError).name
              failures[code] = (failures[code] ?? 0) + 1
            }
          },
        ),
        { seed: SEED, numRuns: RUNS * 2, endOnFailure: true },
      )
      expect(watch.unhandled, `unhandled rejections; ${at}`).toEqual([])
      expect(watch.uncaught, `uncaught exceptions; ${at}`).toEqual([])
      figures['http answers fuzzed'] = calls
      figures['http requests served'] = server.requests
      for (const [k, v] of Object.entries(failures)) figures[`http ${k}`] = v
    } finally {
      watch.stop()
      await server.close()
    }
  })
})

function describeAnswer(a: Answer): string {
  return `${a.status} ${JSON.stringify(a.contentType)} retry-after=${JSON.stringify(a.retryAfter)} body=${JSON.stringify(a.body.subarray(0, 80).toString('latin1'))}`
}

// ---------------------------------------------------------------------------------------------
// 3. Random inputs to every public method: refused locally, or sent well-formed.

interface Captured {
  method: string
  url: string
  body: string
  headers: Record<string, string | string[] | undefined>
}

const WORDS = /undefined|NaN|Infinity|\[object|null/
const str = fc.string({ maxLength: 12 }).filter((s) => !WORDS.test(s))
const num = fc.oneof(fc.integer({ min: -5, max: 1_500 }), fc.constantFrom(NaN, Infinity, -Infinity, 0.5, 1e21, -0))
const leaf = fc.oneof(
  str,
  num,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constantFrom('a@b.co', 'PT', 'drive', 'active', 'ch:1', 'cv1'),
)
const latLng = fc.oneof(
  fc.record({ lat: fc.double({ min: -100, max: 100 }), lng: fc.double({ min: -200, max: 200 }) }),
  fc.record({ lat: leaf, lng: leaf }),
  leaf,
)
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    latLng,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom(
        'query',
        'location',
        'origin',
        'destination',
        'waypoints',
        'mode',
        'near',
        'radiusMeters',
        'type',
        'limit',
        'cursor',
        'regionCode',
        'addressLines',
        'locality',
        'postalCode',
        'center',
        'zoom',
        'bbox',
        'placeId',
        'status',
        'mailboxId',
        'tag',
        'modifiedSince',
        'subject',
        'customer',
        'email',
        'name',
        'text',
        'tags',
        'assigneeId',
        'collectionId',
        'since',
        'epoch',
        'offset',
        'prefix',
        'extra',
      ),
      tie('v'),
      { maxKeys: 6 },
    ),
  ),
})).v

type Method = (c: TandemClient, args: unknown[]) => unknown
const METHODS: [string, Method][] = [
  ['maps.geocode', (c, a) => c.maps.geocode(a[0] as never)],
  ['maps.computeRoute', (c, a) => c.maps.computeRoute(a[0] as never)],
  ['maps.searchPlaces', (c, a) => c.maps.searchPlaces(a[0] as never)],
  ['maps.validateAddress', (c, a) => c.maps.validateAddress(a[0] as never)],
  ['maps.getMapView', (c, a) => c.maps.getMapView(a[0] as never)],
  ['support.mailboxes.list', (c, a) => c.support.mailboxes.list(a[0] as never)],
  ['support.mailboxes.get', (c, a) => c.support.mailboxes.get(a[0] as never)],
  ['support.agents.list', (c, a) => c.support.agents.list(a[0] as never)],
  ['support.conversations.list', (c, a) => c.support.conversations.list(a[0] as never)],
  ['support.conversations.get', (c, a) => c.support.conversations.get(a[0] as never)],
  ['support.conversations.create', (c, a) => c.support.conversations.create(a[0] as never)],
  ['support.conversations.update', (c, a) => c.support.conversations.update(a[0] as never, a[1] as never)],
  ['support.conversations.threads', (c, a) => c.support.conversations.threads(a[0] as never, a[1] as never)],
  ['support.conversations.reply', (c, a) => c.support.conversations.reply(a[0] as never, a[1] as never)],
  ['support.conversations.note', (c, a) => c.support.conversations.note(a[0] as never, a[1] as never)],
  ['support.docs.search', (c, a) => c.support.docs.search(a[0] as never)],
  ['support.docs.list', (c, a) => c.support.docs.list(a[0] as never)],
  ['support.docs.get', (c, a) => c.support.docs.get(a[0] as never)],
  ['support.docs.collections', (c, a) => c.support.docs.collections(a[0] as never)],
  ['realtime.publish', (c, a) => c.realtime.publish(a[0] as never, a[1] as never, a[2])],
  ['realtime.history', (c, a) => c.realtime.history(a[0] as never, a[1] as never)],
  ['realtime.presence', (c, a) => c.realtime.presence(a[0] as never)],
  ['realtime.channels', (c, a) => c.realtime.channels(a[0] as never)],
  ['resources.list', (c, a) => c.support.resources.list(a[0] as never)],
  ['resources.get', (c, a) => c.maps.resources.get(a[0] as never)],
  ['resources.create', (c, a) => c.realtime.resources.create(a[0] as never)],
  ['resources.update', (c, a) => c.support.resources.update(a[0] as never, a[1] as never)],
  ['resources.remove', (c, a) => c.maps.resources.remove(a[0] as never)],
  ['collection.list', (c, a) => c.collection('support', 'conversations').list(a[0] as never)],
]

/** What is wrong with a request that went out, if anything. */
function malformed(r: Captured, base: string): string | undefined {
  let url: URL
  try {
    url = new URL(r.url, base)
  } catch {
    return `an unparsable URL ${r.url}`
  }
  for (const seg of url.pathname.split('/')) {
    let s: string
    try {
      s = decodeURIComponent(seg)
    } catch {
      return `a path segment that is not valid percent-encoding: ${seg}`
    }
    if (WORDS.test(s)) return `a path segment ${JSON.stringify(s)}`
  }
  for (const [k, v] of url.searchParams) if (WORDS.test(k) || WORDS.test(v)) return `a query parameter ${k}=${v}`
  if (r.body !== '') {
    try {
      JSON.parse(r.body)
    } catch {
      return `a body that is not JSON: ${r.body.slice(0, 80)}`
    }
    if (/"(undefined|NaN|Infinity)"|\[object /.test(r.body))
      return `a body with a stringified non-value: ${r.body.slice(0, 120)}`
  }
  return undefined
}

describe('fuzz: random inputs to every public method', () => {
  let capture: Server
  let base = ''
  const captured: Captured[] = []
  const universal = JSON.stringify({
    data: [],
    nextCursor: null,
    results: [],
    polyline: '',
    legs: [],
    members: [],
    messages: [],
    epoch: 'e',
    offset: 0,
    complete: true,
    id: 'x',
    name: 'x',
    features: { type: 'FeatureCollection', features: [] },
  })
  beforeAll(async () => {
    capture = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        captured.push({
          method: req.method ?? '',
          url: req.url ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers,
        })
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(universal)
      })
    })
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', () => resolve()))
    base = `http://127.0.0.1:${(capture.address() as AddressInfo).port}`
  })
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        capture.closeAllConnections()
        capture.close(() => resolve())
      }),
  )

  it(`${RUNS * 10} runs of random arguments to maps, support, realtime REST and collections: ValidationError or a well-formed request`, async () => {
    printSeedOnFailure(SEED, FILE)
    const client = createClient({
      baseUrl: base,
      auth: { fetchToken: async () => ({ token: 'tok', expiresIn: 600 }) },
      retry: false,
      services: { maps: { rateLimit: false }, support: { rateLimit: false }, realtime: { rateLimit: false } },
    })
    let refused = 0
    let sent = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: METHODS.length - 1 }),
        fc.array(value, { minLength: 0, maxLength: 3 }),
        async (which, args) => {
          const [name, method] = METHODS[which]!
          const before = captured.length
          let error: unknown
          try {
            await within(Promise.resolve(method(client, args)), 5_000, `${name} settles; ${at}`)
          } catch (e) {
            error = e
          }
          const requests = captured.slice(before)
          const shown = `${name}(${args.map((x) => JSON.stringify(x) ?? String(x)).join(', ')})`
          if (error !== undefined && isValidationError(error)) {
            if (requests.length)
              throw new Error(`${shown}: a ValidationError, yet ${requests.length} request(s) went out; ${at}`)
            refused++
            return
          }
          // The capture server's one answer fits few calls: a call that sent its request and then
          // refused that answer as off-contract (`bad_response`) went out well-formed all the same.
          const offContract = isApiError(error) && error.code === 'bad_response' && requests.length > 0
          if (error !== undefined && !offContract)
            throw new Error(`${shown} failed with ${String(error)} (not a ValidationError); ${at}`)
          for (const r of requests) {
            const problem = malformed(r, base)
            if (problem) throw new Error(`${shown} sent ${r.method} ${r.url} with ${problem}; ${at}`)
          }
          sent += requests.length
        },
      ),
      { seed: SEED, numRuns: RUNS * 10, endOnFailure: true },
    )
    figures['inputs refused (ValidationError)'] = refused
    figures['requests checked well-formed'] = sent
  })

  it(`${RUNS * 4} runs of random arguments to realtime channels: ValidationError or a frame the service accepts`, async () => {
    printSeedOnFailure(SEED, FILE)
    const emu: Emulator = await startEmulator({
      seed: SEED,
      realtime: { publishRate: { limit: 100_000, intervalMs: 1000 } },
    })
    const rt: Realtime = createRealtime(
      {
        auth: { fetchToken: async () => ({ token: await emu.mintToken({ scope: ['realtime'] }), expiresIn: 600 }) },
        url: `${emu.url}/realtime`,
      },
      { WebSocket },
    )
    const refusedByService: string[] = []
    emu.realtime.on((e) => {
      if (e.type === 'out' && e.frame.type === 'error') {
        const err = e.frame.error as { code: string; message: string }
        // The service refusing what the SDK should have caught: a malformed request.
        if (err.code === 'bad_request' || err.code === 'invalid_channel')
          refusedByService.push(`${err.code}: ${err.message}`)
      }
    })
    let refused = 0
    let settled = 0
    const names = fc.oneof(fc.constantFrom('fz:a', 'fz:b', 'x.y', '.', '..', '', 'a/b', 'é'), str, leaf)
    try {
      await fc.assert(
        fc.asyncProperty(
          names,
          fc.constantFrom('publish', 'history', 'enter', 'update', 'get', 'leave', 'subscribe'),
          fc.array(value, { maxLength: 3 }),
          async (name, op, args) => {
            const shown = `channel(${JSON.stringify(name)}).${op}(${args.map((x) => JSON.stringify(x) ?? String(x)).join(', ')})`
            const before = refusedByService.length
            let error: unknown
            try {
              const ch: Channel = rt.channel(name as string)
              const timeout = { timeoutMs: 2_000 }
              const run: Record<string, () => unknown> = {
                publish: () => ch.publish(args[0] as string, args[1], timeout),
                history: () =>
                  history(
                    ch,
                    args[0] === undefined || typeof args[0] !== 'object' || args[0] === null
                      ? (args[0] as never)
                      : { ...(args[0] as object), timeoutMs: 2_000 },
                  ),
                enter: () => presence(ch).enter(args[0]),
                update: () => presence(ch).update(args[0]),
                get: () => presence(ch).get(timeout),
                leave: () => presence(ch).leave(),
                subscribe: () => {
                  const off = ch.subscribe(args[0] as string, args[1] as never)
                  off()
                },
              }
              await within(Promise.resolve(run[op]!()), 5_000, `${shown} settles; ${at}`)
            } catch (e) {
              error = e
            }
            // Let the service answer anything still in flight before judging.
            await within(history(rt.channel('fz:probe')), 5_000, `probe; ${at}`)
            if (refusedByService.length > before)
              throw new Error(
                `${shown}: the SDK sent a frame the service refused as malformed (${refusedByService.at(-1)}); ${at}`,
              )
            if (error === undefined) return void settled++
            if (isValidationError(error)) return void refused++
            // The service may refuse for its own reasons (forbidden, not_subscribed, message_too_large, timeout); typed, never malformed.
            if (!typed(error)) throw new Error(`${shown} failed with an untyped error: ${String(error)}; ${at}`)
            settled++
          },
        ),
        { seed: SEED, numRuns: RUNS * 4, endOnFailure: true },
      )
      expect(emu.realtime.stats.framesIn.invalid ?? 0, at).toBe(0)
      figures['realtime calls refused (ValidationError)'] = refused
      figures['realtime calls sent'] = settled
    } finally {
      rt.close()
      await emu.close()
    }
  })
})
