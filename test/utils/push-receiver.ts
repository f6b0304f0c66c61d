// Web Push test helpers: a browser's subscription keys (real P-256 and a real auth secret), a
// local HTTPS push service (a `selfsigned` certificate the emulator is told to trust through
// `push.agent`), and the independent decryption of what it received (`http_ece`, not web-push).
import { createECDH, randomBytes, randomUUID, type ECDH } from 'node:crypto'
import { createServer, Agent, type Server } from 'node:https'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { generate } from 'selfsigned'
import { waitUntil } from './wait.js'

/** http_ece has no types: the one call these tests make. */
interface Ece {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer
}
const ece = createRequire(import.meta.url)('http_ece') as Ece

export interface BrowserSubscription {
  endpoint: string
  keys: { p256dh: string; auth: string }
  /** The browser's private side: what decrypts a push. */
  ecdh: ECDH
  authSecret: Buffer
}

/** What `pushManager.subscribe()` makes: a fresh P-256 key pair and a 16-byte secret. */
export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const authSecret = randomBytes(16)
  return {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
    ecdh,
    authSecret,
  }
}

/** The JSON a push carried, decrypted with the subscription's private key (RFC 8291, by http_ece). */
export function decryptPush(body: Buffer, sub: BrowserSubscription): unknown {
  const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.authSecret })
  return JSON.parse(plain.toString('utf8'))
}

/**
 * How an endpoint answers: a status; `hang` (reads the push, answers only on `release()`);
 * `trickle` (201 and then a byte of body every 20 ms, never ending); `flood` (201 and then an
 * endless body as fast as the client reads it).
 */
export type Behaviour = number | 'hang' | 'trickle' | 'flood'

export interface PushHit {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
  /** The status answered; undefined while held. */
  status: number | undefined
  /** The sender closed the connection before the answer was complete. */
  aborted: boolean
}

export interface PushReceiver {
  /** Trusts the receiver's certificate: the emulator's `push.agent`. */
  agent: Agent
  hits: PushHit[]
  /** A fresh endpoint URL on this receiver that answers as `behaviour` says. */
  endpoint(behaviour?: Behaviour): string
  /** The hits on one endpoint. */
  at(endpoint: string): PushHit[]
  /** Resolves once `check()` holds, re-checked on each request; bounded. */
  waitFor(check: () => boolean, what: string): Promise<void>
  /** Answers every held request `status` (201 unless told). */
  release(status?: number): void
  close(): Promise<void>
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as Parameters<typeof generate>[1])
  const behaviours = new Map<string, Behaviour>()
  const hits: PushHit[] = []
  const held: { res: ServerResponse; hit: PushHit }[] = []
  const watchers = new Set<() => void>()
  const changed = () => {
    for (const w of watchers) w()
  }
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = req.url ?? ''
      const hit: PushHit = {
        path,
        headers: req.headers,
        body: Buffer.concat(chunks),
        status: undefined,
        aborted: false,
      }
      hits.push(hit)
      res.on('close', () => {
        if (res.writableFinished) return
        hit.aborted = true
        changed()
      })
      const behaviour = behaviours.get(path) ?? 410
      if (behaviour === 'hang') held.push({ res, hit })
      else if (behaviour === 'trickle' || behaviour === 'flood') stream(res, hit, behaviour)
      else answer(res, hit, behaviour)
      changed()
    })
  })
  const answer = (res: ServerResponse, hit: PushHit, status: number) => {
    hit.status = status
    res.statusCode = status
    res.end()
  }
  const stream = (res: ServerResponse, hit: PushHit, behaviour: 'trickle' | 'flood') => {
    hit.status = 201
    res.writeHead(201, { 'content-type': 'text/plain' })
    const more = () => {
      if (res.destroyed) return
      if (behaviour === 'trickle') res.write('.', () => void setTimeout(more, 20))
      else if (res.write(Buffer.alloc(16_384, 46))) setImmediate(more)
      else res.once('drain', more)
    }
    more()
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const agent = new Agent({ ca: pems.cert })
  return {
    agent,
    hits,
    endpoint(behaviour = 201) {
      // A path of its own: a port is reused once closed, and another file's emulator may still push to it.
      const path = `/push/${randomUUID()}`
      behaviours.set(path, behaviour)
      return `https://127.0.0.1:${port}${path}`
    },
    at: (endpoint) => hits.filter((h) => endpoint.endsWith(h.path)),
    waitFor(check, what) {
      return waitUntil(check, {
        what,
        on: (cb) => {
          watchers.add(cb)
          return () => void watchers.delete(cb)
        },
      })
    },
    release(status = 201) {
      for (const { res, hit } of held.splice(0)) answer(res, hit, status)
    },
    async close() {
      for (const { res } of held.splice(0)) res.destroy()
      agent.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
