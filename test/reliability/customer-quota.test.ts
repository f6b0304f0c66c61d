// Quota per person (issue 43, row 5): one customer bursts `/support/v1/me` (raw fetch, well past
// the app's 500 a minute, then 40 a second) while an agent makes 20 requests over 4 s. Each
// customer draws on its own bucket (CUSTOMER_PLAN, 60 a minute) before the app's plan, so the
// agent never meets a 429 from it, and every 429 the customer gets names its own bucket: in
// `Tandem-RateLimit-Bucket`, in `error.details[0].bucket`, and through the SDK, in
// `RateLimitError.bucket` and the `rateLimit` event. Real HTTP on 127.0.0.1, the real plans.
import { performance } from 'node:perf_hooks'
import { CUSTOMER_PLAN, PLANS, RATE_LIMIT_HEADERS } from '@tandem/contract'
import { createClient, isRateLimitError, type RateLimitState } from '@tandem/core'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterEach, describe, expect, it } from 'vitest'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { during, within } from '../utils/wait.js'

const FILE = 'customer-quota'
const SEED = seedFrom(0x60)
const at = replay(SEED, FILE)

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

interface Answer {
  status: number
  bucket: string | null
  detail?: unknown
}

/** One raw GET of the customer's profile: its status, the bucket header and, on a 429, details[0].bucket. */
async function me(emu: Emulator, token: string): Promise<Answer> {
  const res = await fetch(`${emu.url}/support/v1/me`, { headers: { authorization: `Bearer ${token}` } })
  const body = (await res.json()) as { error?: { details?: { bucket?: unknown }[] } }
  const bucket = res.headers.get(RATE_LIMIT_HEADERS.bucket)
  return res.status === 429
    ? { status: 429, bucket, detail: body.error?.details?.[0]?.bucket }
    : { status: res.status, bucket }
}

describe('quota per person', () => {
  it("a customer's burst is refused on its own bucket: 0 of an agent's 20 requests get 429", async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await startEmulator({ seed: SEED })
    cleanups.push(() => emu.close())
    const customerToken = await emu.mintToken({ subject: 'cus_1', scope: ['support:customer'] })
    // The SDK's clients: the agent's (its own bucket and retries off, so a 429 is seen, not waited out)
    // and the customer's, whose refusal must say whose quota it was.
    const agent = createClient({
      baseUrl: emu.url,
      auth: { fetchToken: async () => ({ token: await emu.mintToken({ subject: 'agt_1' }), expiresIn: 600 }) },
      retry: false,
    })
    const agentStatuses: number[] = []
    agent.on('request', (e) => void (e.status !== undefined && agentStatuses.push(e.status)))
    const customer = createClient({
      baseUrl: emu.url,
      auth: { fetchToken: async () => ({ token: customerToken, expiresIn: 600 }) },
      retry: false,
    })
    const states: RateLimitState[] = []
    customer.on('rateLimit', (s) => void states.push(s))

    // The burst: past the app's whole plan, 20 at a time.
    const started = performance.now()
    const answers: Answer[] = []
    const BURST = PLANS.support.limit + 40
    await within(
      (async () => {
        for (let sent = 0; sent < BURST; sent += 20)
          answers.push(...(await Promise.all(Array.from({ length: 20 }, () => me(emu, customerToken)))))
      })(),
      60_000,
      `the burst of ${BURST}; ${at}`,
    )

    // Then 40 a second from the customer while the agent makes 20 requests, one every 200 ms.
    let flooding = true
    const flood = (async () => {
      const inflight: Promise<void>[] = []
      while (flooding) {
        inflight.push(me(emu, customerToken).then((a) => void answers.push(a)))
        await during(25)
      }
      await Promise.all(inflight)
    })()
    const agentErrors: unknown[] = []
    for (let i = 0; i < 20; i++) {
      await agent
        .request({ service: 'support', method: 'GET', path: '/v1/mailboxes', query: { limit: 1 } })
        .catch((e: unknown) => void agentErrors.push(e))
      await during(200)
    }
    flooding = false
    await within(flood, 30_000, `the flood settles; ${at}`)

    // Through the SDK, the customer's next requests: refused on its own bucket by the service (429), or,
    // once an answer has told the client that bucket is empty, by its own mirror of it (a wait past
    // `maxQueueWaitMs: 0`); either way the RateLimitError says whose quota it was.
    let refused: unknown
    for (let i = 0; i < 3 && refused === undefined; i++) {
      refused = await customer.request({ service: 'support', method: 'GET', path: '/v1/me', maxQueueWaitMs: 0 }).then(
        () => undefined,
        (e: unknown) => e,
      )
    }
    const elapsedMs = performance.now() - started

    expect(agentStatuses.filter((s) => s === 429).length, `agent 429s of 20; ${at}`).toBe(0)
    expect(agentErrors, `agent errors; ${at}`).toEqual([])
    expect(agentStatuses.length).toBe(20)

    const ok = answers.filter((a) => a.status === 200)
    const limited = answers.filter((a) => a.status === 429)
    // A bucket of 60 refilled at 1 a second admits at most 60 + what refilled while the test ran.
    const admissible = CUSTOMER_PLAN.limit + (elapsedMs * CUSTOMER_PLAN.limit) / CUSTOMER_PLAN.intervalMs + 1
    expect(ok.length, `customer 200s of ${answers.length} in ${elapsedMs.toFixed(0)} ms; ${at}`).toBeLessThanOrEqual(
      admissible,
    )
    expect(ok.length).toBeGreaterThanOrEqual(CUSTOMER_PLAN.limit)
    expect(limited.length).toBe(answers.length - ok.length)
    expect(
      limited.filter((a) => a.bucket !== 'customer' || a.detail !== 'customer'),
      `429s that do not name the customer's bucket; ${at}`,
    ).toEqual([])

    expect(isRateLimitError(refused), `the SDK's refusal: ${String(refused)}; ${at}`).toBe(true)
    expect(refused).toMatchObject({ bucket: 'customer', code: expect.stringMatching(/^rate_limit(ed|_wait)$/) })
    expect(states.at(-1)).toMatchObject({ service: 'support', bucket: 'customer', limit: CUSTOMER_PLAN.limit })
  })
})
