// A handler that loses its lease while it runs is reported, never silently (a renewal answered
// "not yours", or no renewal getting through for a whole lease): another instance may be running
// the same event's handler meanwhile. Against a real redis-server.
import { createClient, type RedisClientType } from 'redis'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { during, waitUntil } from '../../../../test/utils/wait.js'
import { createWebhookHandler, signWebhook, WebhookClaimError } from '../index.js'
import { createRedisReplayStore, type RedisLike } from '../redis.js'
import { hasRedis, startRedis, type RedisServer } from './redis-server.js'

const SECRET = 'whsec_redis_claim_lost_4b6d8f0a2c4e6b8d'
const LEASE_SECONDS = 1.5 // renewed every 0.5 s
let n = 0
const deliver = async (handler: (r: Request) => Promise<Response>, id: string) => {
  const body = JSON.stringify({ id, type: 'x' })
  const headers = { 'tandem-signature': await signWebhook(body, SECRET) }
  return (await handler(new Request('https://app.example/hooks', { method: 'POST', headers, body }))).status
}

describe.runIf(hasRedis)('a lease lost while the handler runs is reported (real redis-server)', () => {
  let redis: RedisServer
  let direct: RedisClientType
  const clients: RedisClientType[] = []
  beforeAll(async () => {
    redis = await startRedis()
    direct = await connect()
  })
  afterEach(() => vi.restoreAllMocks())
  afterAll(async () => {
    for (const client of clients) client.destroy()
    await redis?.kill()
  })

  async function connect(): Promise<RedisClientType> {
    const client: RedisClientType = createClient({ url: redis.url })
    client.on('error', () => {})
    await client.connect()
    clients.push(client)
    return client
  }

  /** An instance whose handler's first run waits for `finish`; later runs answer at once. */
  async function instance(onError?: (error: WebhookClaimError) => void) {
    let finish = (): void => {}
    const gate = new Promise<void>((resolve) => (finish = resolve))
    const state = { runs: 0, finish }
    const handler = createWebhookHandler({
      secret: SECRET,
      on: {
        x: async () => {
          if (++state.runs === 1) await gate
        },
      },
      replayStore: createRedisReplayStore({ client: (await connect()) as unknown as RedisLike }),
      leaseSeconds: LEASE_SECONDS,
      storeTimeoutMs: 300,
      ...(onError ? { onError } : {}),
    })
    return { handler, state }
  }

  it.each(['onError', 'console.error'] as const)(
    'the claim taken by another instance mid-handler: reported once (%s), the delivery still answers 200',
    async (kind) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
      const onError = vi.fn()
      const a = await instance(kind === 'onError' ? onError : undefined)
      const b = await instance()
      b.state.finish() // the second instance's run answers at once
      const id = `evt_lost_${Date.now()}_${++n}`
      const first = deliver(a.handler, id)
      await waitUntil(() => a.state.runs === 1, { what: 'the handler to start' })
      // The lease lapses under it (a stall, a failover): the other instance claims the event and
      // runs its handler while the first still runs.
      await direct.del(`tandem:webhook:${id}`)
      expect(await deliver(b.handler, id)).toBe(200)
      expect(b.state.runs).toBe(1)
      const reports = kind === 'onError' ? onError : logged
      await waitUntil(() => reports.mock.calls.length > 0, { what: 'the lost claim reported', timeoutMs: 10_000 })
      await during(LEASE_SECONDS * 1000) // more renewal ticks: still once
      a.state.finish()
      expect(await first).toBe(200)
      expect(reports).toHaveBeenCalledTimes(1)
      if (kind === 'onError') {
        const error = onError.mock.calls[0]![0] as WebhookClaimError
        expect(error).toBeInstanceOf(WebhookClaimError)
        expect(error).toMatchObject({ code: 'claim_lost', reason: 'taken', eventId: id })
        expect(logged).not.toHaveBeenCalled()
      } else {
        expect(String(logged.mock.calls[0]![0])).toMatch(
          new RegExp(`^\\[tandem\\] webhook handler: The claim on webhook event ${id} was lost`),
        )
      }
    },
    20_000,
  )

  it('no renewal gets through for a whole lease (Redis paused): reported once as unrenewed', async () => {
    const onError = vi.fn()
    const a = await instance(onError)
    const id = `evt_unrenewed_${Date.now()}_${++n}`
    const first = deliver(a.handler, id)
    await waitUntil(() => a.state.runs === 1, { what: 'the handler to start' })
    // Every client's commands wait for 2½ leases; each renewal times out after 300 ms.
    await direct.sendCommand(['CLIENT', 'PAUSE', String(LEASE_SECONDS * 2500), 'ALL'])
    await waitUntil(() => onError.mock.calls.length > 0, { what: 'the lost claim reported', timeoutMs: 10_000 })
    const error = onError.mock.calls[0]![0] as WebhookClaimError
    expect(error).toMatchObject({ code: 'claim_lost', reason: 'unrenewed', eventId: id })
    expect(error.message).toContain(`no renewal succeeded for ${LEASE_SECONDS} s`)
    expect(error.cause).toBeDefined() // the last renewal's failure
    a.state.finish()
    await first
    await during(LEASE_SECONDS * 1000)
    expect(onError).toHaveBeenCalledTimes(1)
  }, 20_000)
})
