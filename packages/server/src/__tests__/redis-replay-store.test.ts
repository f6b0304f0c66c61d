// The Redis replay store against a real redis-server (redis-server.ts), with both clients it
// supports: node-redis (`redis`) and ioredis. Two handler instances with their own connections
// stand for two instances of an app behind a load balancer.
import { Redis } from 'ioredis'
import { createClient, type RedisClientType } from 'redis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createWebhookHandler, signWebhook, type WebhookEvent } from '../index.js'
import { createRedisReplayStore } from '../redis.js'
import { hasRedis, startRedis, type RedisServer } from './redis-server.js'
import { slack } from '../../../../test/utils/wait.js'

const SECRET = 'whsec_redis_test_4f2a9c7e1b3d5f7a9c1e'
let n = 0
const event = (): WebhookEvent => ({
  id: `evt_redis_${Date.now()}_${++n}`,
  type: 'x',
  createdAt: '',
  appId: 'app',
  data: {},
})
const deliver = async (handler: (r: Request) => Promise<Response>, body: string) =>
  handler(
    new Request('https://app.example/hooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'tandem-signature': await signWebhook(body, SECRET) },
      body,
    }),
  )
const codeOf = async (response: Response) =>
  response.status === 200
    ? 200
    : `${response.status} ${((await response.json()) as { error: { code: string } }).error.code}`

describe.runIf(hasRedis)('createRedisReplayStore on a real redis-server', () => {
  let redis: RedisServer
  let nodeRedis: RedisClientType
  let ioredis: Redis
  beforeAll(async () => {
    redis = await startRedis()
    // Short reconnect delays: the kill test waits for the clients to come back.
    nodeRedis = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } })
    nodeRedis.on('error', () => {}) // reported by the handler as 503; node-redis would throw unhandled
    await nodeRedis.connect()
    ioredis = new Redis(redis.url, { retryStrategy: () => 50, maxRetriesPerRequest: 1, lazyConnect: false })
    ioredis.on('error', () => {})
  })
  afterAll(async () => {
    await nodeRedis?.disconnect().catch(() => {})
    ioredis?.disconnect()
    await redis?.kill()
  })

  /** Two instances of one app: each its own handler and its own Redis connection (one per client library). */
  const instances = (
    on: (event: WebhookEvent) => Promise<void>,
    options: { toleranceSeconds?: number; storeTimeoutMs?: number } = {},
  ) =>
    [nodeRedis, ioredis].map((client) =>
      createWebhookHandler({
        secret: SECRET,
        on: { x: on },
        replayStore: createRedisReplayStore({ client }),
        ...options,
      }),
    )

  it('one event delivered 20× at once across two instances: one 2xx, retryable in-flight answers, then 409', async () => {
    let release = (): void => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    let runs = 0
    const [a, b] = instances(async () => {
      runs++
      await gate
    })
    const body = JSON.stringify(event())
    const answers: (number | string)[] = []
    const all = Array.from({ length: 20 }, (_, i) =>
      deliver(i % 2 ? a! : b!, body).then(async (r) => void answers.push(await codeOf(r))),
    )
    // Everything but the winner answers while the winner's handler is still running.
    await vi.waitFor(() => expect(answers).toHaveLength(19), { timeout: 5_000, interval: 10 })
    expect(answers.every((code) => code === '503 delivery_in_flight')).toBe(true)
    release()
    await Promise.all(all)
    expect(answers.filter((code) => code === 200)).toHaveLength(1)
    expect(runs).toBe(1)
    expect(await codeOf(await deliver(a!, body))).toBe('409 duplicate_delivery')
    expect(await codeOf(await deliver(b!, body))).toBe('409 duplicate_delivery')
  })

  it('a handler that throws gives its claim back: the next delivery, on the other instance, is accepted', async () => {
    let fail = true
    let runs = 0
    const [a, b] = instances(async () => {
      runs++
      if (fail) throw new Error('db down')
    })
    const body = JSON.stringify(event())
    expect(await codeOf(await deliver(a!, body))).toBe('500 internal_error')
    fail = false
    expect(await codeOf(await deliver(b!, body))).toBe(200)
    expect(runs).toBe(2)
  })

  it('Redis killed mid-run: 503 replay_store_unavailable, no crash, no handler run; back when Redis is', async () => {
    let runs = 0
    const [a, b] = instances(async () => void runs++, { storeTimeoutMs: 300 })
    expect(await codeOf(await deliver(a!, JSON.stringify(event())))).toBe(200)
    await redis.kill()
    for (const handler of [a!, b!]) {
      expect(await codeOf(await deliver(handler, JSON.stringify(event())))).toBe('503 replay_store_unavailable')
    }
    expect(runs).toBe(1)
    await redis.start()
    // Each client reconnects on its own schedule: the sender's retries land once it has.
    for (const handler of [a!, b!]) {
      const body = JSON.stringify(event())
      await vi.waitFor(async () => expect(await codeOf(await deliver(handler, body))).toBe(200), {
        timeout: 5_000,
        interval: 100,
      })
    }
    expect(runs).toBe(3)
  })

  it(
    '10,000 distinct events: all accepted; the keys expire with the ttl, so memory stays bounded',
    async () => {
      // A 3 s signature window makes the ttl 6 s (it covers every moment a signature is valid).
      await nodeRedis.flushDb() // the keys of earlier tests live for their own (10 min) ttl
      const [a, b] = instances(async () => {}, { toleranceSeconds: 3 })
      const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await nodeRedis.info('memory'))?.[1])
      const before = await usedMemory()
      // On a busy machine the 10,000 deliveries may outlast the 6 s ttl: keys that expired meanwhile count
      // too. Every key is either still in the database (DBSIZE counts one past its ttl that Redis has not
      // reclaimed yet; KEYS leaves it out: 7,679 of 10,000 under load) or counted in expired_keys; both
      // read in one MULTI, so none moves between the two reads.
      const stored = async () => {
        const [size, stats] = (await nodeRedis.multi().dbSize().info('stats').exec()) as unknown as [number, string]
        return Number(size) + Number(/expired_keys:(\d+)/.exec(stats)?.[1])
      }
      const storedBefore = await stored()
      const bodies = Array.from({ length: 10_000 }, () => JSON.stringify(event()))
      const codes: (number | string)[] = []
      for (let i = 0; i < bodies.length; i += 250) {
        const batch = bodies.slice(i, i + 250)
        codes.push(...(await Promise.all(batch.map(async (body, j) => codeOf(await deliver(j % 2 ? a! : b!, body))))))
      }
      expect([...new Set(codes.filter((c) => c !== 200))]).toEqual([])
      expect((await stored()) - storedBefore).toBe(10_000)
      const keys = await nodeRedis.keys('tandem:webhook:*')
      const perEvent = ((await usedMemory()) - before) / Math.max(1, keys.length)
      console.info(`[redis] ${perEvent.toFixed(0)} B of Redis memory per event in the window`)
      expect(perEvent).toBeLessThan(256) // one short key with a ttl each; nothing else grows
      for (const key of keys.slice(0, 100)) {
        const ttl = await nodeRedis.ttl(key)
        expect(ttl).toBeGreaterThanOrEqual(-2) // -2: expired since keys() listed it
        expect(ttl).not.toBe(-1) // never a key without a ttl
        expect(ttl).toBeLessThanOrEqual(6)
      }
      await vi.waitFor(async () => expect(await nodeRedis.dbSize()).toBe(0), { timeout: 12_000, interval: 200 })
    },
    slack(15_000),
  ) // 10,000 deliveries: slower on a busy machine
})
