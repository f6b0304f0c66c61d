// Claims are leases (issue 27, fault 3): a claim whose reply is lost, or whose holder died, lapses
// in seconds; a handler that runs longer than the lease keeps its claim by renewing it. Against a
// real redis-server, through a hostile proxy (redis-proxy.ts) that loses the reply of a claim.
import { Redis } from 'ioredis'
import { createClient, type RedisClientType } from 'redis'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { during, waitUntil } from '../../../../test/utils/wait.js'
import { createWebhookHandler, signWebhook, type WebhookEvent } from '../index.js'
import { createRedisReplayStore, type RedisLike } from '../redis.js'
import { startRedisProxy, type RedisProxy } from './redis-proxy.js'
import { hasRedis, startRedis, type RedisServer } from './redis-server.js'

const SECRET = 'whsec_redis_lease_8d1f3a5c7e9b2d4f6a8c'
let n = 0
const event = (): WebhookEvent => ({
  id: `evt_lease_${Date.now()}_${++n}`,
  type: 'x',
  createdAt: '',
  appId: 'a',
  data: {},
})
const deliver = async (handler: (r: Request) => Promise<Response>, body: string) => {
  const response = await handler(
    new Request('https://app.example/hooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'tandem-signature': await signWebhook(body, SECRET) },
      body,
    }),
  )
  if (response.status === 200) return 200
  return `${response.status} ${((await response.json()) as { error: { code: string } }).error.code}`
}

// The sender's default retry delays (the emulator's `retryDelaysMs`, as Tandem sends them), run
// 15× faster here, with a lease and a ttl 15× shorter than the defaults (30 s, 600 s): 2 s, 40 s.
// TANDEM_LEASE_SCALE=1 runs them at the defaults (36 s a client), for docs/reliability.md.
const SCALE = Number(process.env.TANDEM_LEASE_SCALE ?? 15)
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000].map((ms) => ms / SCALE)
const LEASE_SECONDS = 30 / SCALE

const clients: Record<'node-redis' | 'ioredis', (url: string) => Promise<[RedisLike, () => void]>> = {
  'node-redis': async (url) => {
    const client: RedisClientType = createClient({ url, socket: { reconnectStrategy: () => 50 } })
    client.on('error', () => {}) // lost connections are the subject here
    await client.connect()
    return [client as unknown as RedisLike, () => client.destroy()]
  },
  ioredis: async (url) => {
    const client = new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: 1 })
    client.on('error', () => {})
    await new Promise((resolve) => client.once('ready', resolve))
    return [client as unknown as RedisLike, () => client.disconnect()]
  },
}

describe.runIf(hasRedis)('webhook claims are leases (real redis-server)', () => {
  let redis: RedisServer
  let direct: RedisClientType
  const open: { close: () => unknown }[] = []
  beforeAll(async () => {
    redis = await startRedis()
    direct = createClient({ url: redis.url })
    direct.on('error', () => {})
    await direct.connect()
  })
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close()
  })
  afterAll(async () => {
    await direct?.quit().catch(() => {})
    await redis?.kill()
  })

  const connectThrough = async (kind: keyof typeof clients, url: string) => {
    const [client, close] = await clients[kind](url)
    open.push({ close })
    return client
  }

  it.each(Object.keys(clients) as (keyof typeof clients)[])(
    '%s: a claim whose reply is lost lapses with its lease; the sender’s retry after it runs the handler once',
    async (kind) => {
      const proxy: RedisProxy = await startRedisProxy(redis.port)
      open.push(proxy)
      const client = await connectThrough(kind, proxy.url)
      let runs = 0
      const handler = createWebhookHandler({
        secret: SECRET,
        on: { x: async () => void runs++ },
        replayStore: createRedisReplayStore({ client }),
        leaseSeconds: LEASE_SECONDS,
        toleranceSeconds: 300 / SCALE, // the ttl (twice it) scaled too: a claim for the ttl is the bug
        storeTimeoutMs: 500,
      })
      const evt = event()
      const body = JSON.stringify(evt)
      proxy.armCut()
      const started = performance.now()
      const answers: (number | string)[] = [await deliver(handler, body)]
      expect(proxy.cuts()).toBe(1)
      expect(answers[0]).toMatch(/^503 /) // retryable: replay_store_unavailable, or in flight once resent
      expect(String(await direct.get(`tandem:webhook:${evt.id}`))).toMatch(/^pending:/) // applied, reply lost
      // The sender's schedule: each retry after its delay, until one is handled.
      let landedAfterMs = 0
      for (const delay of RETRY_DELAYS_MS) {
        await during(delay)
        const answer = await deliver(handler, body)
        answers.push(answer)
        if (answer === 200) {
          landedAfterMs = performance.now() - started
          break
        }
        expect(answer).toMatch(/^503 /)
      }
      console.info(
        `[lease] ${kind}: lost claim reply, handled on attempt ${answers.length} after ${Math.round(landedAfterMs)} ms ` +
          `(×${SCALE}: ${Math.round((landedAfterMs * SCALE) / 1000)} s at the defaults); answers ${answers.join(', ')}`,
      )
      expect(answers.at(-1)).toBe(200)
      expect(answers.length).toBeLessThanOrEqual(5) // not the last retry (the ttl's): the first after the lease
      expect(runs).toBe(1)
      // The lease lapsed before the retry that landed; none landed early (before the lease).
      expect(landedAfterMs).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000 - 50)
      expect(await deliver(handler, body)).toBe('409 duplicate_delivery')
      expect(runs).toBe(1)
    },
    15_000 + 800_000 / SCALE, // the whole schedule, so the bug fails an assertion rather than the timeout
  )

  it('a handler that runs past its lease keeps its claim: copies meanwhile are in flight, the handler runs once', async () => {
    // A 4 s lease renewed every 1.33 s: 2.7 s of slack for a stalled event loop or Redis (a busy
    // 2-core machine), where 1.5 s leases left 1 s. The handler holds for 2½ leases, so without
    // renewal the claim lapses and a copy runs the handler again.
    const LEASE_MS = 4_000
    const key = (id: string) => `tandem:webhook:${id}`
    let runs = 0
    let finish = (): void => {}
    const gate = new Promise<void>((resolve) => (finish = resolve))
    const onError = vi.fn()
    const instances = await Promise.all(
      (['node-redis', 'ioredis'] as const).map(async (kind) =>
        createWebhookHandler({
          secret: SECRET,
          on: {
            x: async () => {
              if (++runs === 1) await gate // a second run (the bug) answers at once
            },
          },
          replayStore: createRedisReplayStore({ client: await connectThrough(kind, redis.url) }),
          leaseSeconds: LEASE_MS / 1000,
          onError,
        }),
      ),
    )
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]]
    const evt = event()
    const body = JSON.stringify(evt)
    const first = deliver(a, body)
    await waitUntil(() => runs === 1, { what: 'the handler to start' })
    // A copy every 2 s on the other instance for 10 s: still in flight. The key's remaining time
    // grows back between samples: renewals happened (whatever the clock did meanwhile).
    let renewed = false
    let last = await direct.pTTL(key(evt.id))
    for (let i = 0; i < 5; i++) {
      await during(LEASE_MS / 2)
      expect(await deliver(b, body)).toBe('503 delivery_in_flight')
      const pttl = await direct.pTTL(key(evt.id))
      expect(pttl).toBeGreaterThan(0)
      if (pttl > last) renewed = true
      last = pttl
    }
    expect(renewed).toBe(true)
    finish()
    expect(await first).toBe(200)
    expect(runs).toBe(1)
    expect(onError).not.toHaveBeenCalled() // a lease kept is not reported
    expect(await deliver(b, body)).toBe('409 duplicate_delivery')
    expect(await direct.ttl(key(evt.id))).toBeGreaterThan(60) // done: the long ttl
  }, 30_000)
})
