// A client with no `error` listener of its own (issue 27, fault 2): the store listens, so a
// kill -9 of Redis never ends the process, and says so (once per outage, or through `onError`).
import { createClient } from 'redis'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { during, slack, waitUntil } from '../../../../test/utils/wait.js'
import { createWebhookHandler, signWebhook } from '../index.js'
import { createRedisReplayStore } from '../redis.js'
import { hasRedis, startRedis, type RedisServer } from './redis-server.js'

const SECRET = 'whsec_redis_errors_2c4e6a8b0d2f4a6c8e0b'
let n = 0
const deliver = async (handler: (r: Request) => Promise<Response>) => {
  const body = JSON.stringify({ id: `evt_err_${Date.now()}_${++n}`, type: 'x' })
  const headers = { 'tandem-signature': await signWebhook(body, SECRET) }
  return (await handler(new Request('https://app.example/hooks', { method: 'POST', headers, body }))).status
}

describe('createRedisReplayStore arguments', () => {
  it('refuses a client without set, get, del and eval, and an onError that is not a function', () => {
    const noop = async () => null
    expect(() => createRedisReplayStore({ client: {} as never })).toThrow(TypeError)
    expect(() => createRedisReplayStore({ client: { set: noop, get: noop, del: noop } as never })).toThrow(TypeError)
    const client = { set: noop, get: noop, del: noop, eval: noop }
    expect(() => createRedisReplayStore({ client, onError: 'log' as never })).toThrow(TypeError)
    expect(createRedisReplayStore({ client }).renew).toBeTypeOf('function') // no `on`: nothing to listen to
  })
})

describe.runIf(hasRedis)('createRedisReplayStore listens for client errors', () => {
  let redis: RedisServer | undefined
  let close = (): void => {}
  afterEach(async () => {
    close()
    vi.restoreAllMocks()
    await redis?.kill()
  })

  it.each(['the default report', 'onError'] as const)(
    'kill -9 of Redis with no listener of the app: no crash, 503, reported (%s), back after',
    async (kind) => {
      redis = await startRedis()
      // No `.on('error')` here: the docs' snippet before issue 27.
      const client = createClient({ url: redis.url })
      const reconnects = vi.fn()
      client.on('reconnecting', reconnects)
      await client.connect()
      close = () => void client.destroy()
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
      const onError = vi.fn()
      const handler = createWebhookHandler({
        secret: SECRET,
        on: { x: () => {} },
        replayStore: createRedisReplayStore({ client, ...(kind === 'onError' ? { onError } : {}) }),
        storeTimeoutMs: slack(300), // a busy machine answers a live Redis slower than 300 ms (503 once beside a CI run)
      })
      expect(await deliver(handler)).toBe(200)
      await redis.kill()
      expect(await deliver(handler)).toBe(503)
      await waitUntil(() => reconnects.mock.calls.length >= 3, { what: 'three failed reconnects', timeoutMs: 10_000 })
      if (kind === 'onError') {
        expect(onError.mock.calls.length).toBeGreaterThanOrEqual(2) // each error the client emits
        expect(logged).not.toHaveBeenCalled() // the app reports them
      } else {
        expect(logged).toHaveBeenCalledTimes(1) // once per outage, not once per reconnect
        expect(String(logged.mock.calls[0]![0])).toMatch(/webhook replay store: Redis error .*deliveries answer 503/)
      }
      await redis.start()
      await waitUntil(() => client.isReady, { what: 'the client back', timeoutMs: 10_000 })
      expect(await deliver(handler)).toBe(200)
      await during(50)
    },
  )
})
