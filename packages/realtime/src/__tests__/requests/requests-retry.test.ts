import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRequests } from '../../requests/requests.js'

afterEach(() => vi.restoreAllMocks())

describe('requests: a rate_limited refusal', () => {
  // Regression: the refused request was woken by one timer of exactly retryAfterMs. A timer can
  // fire before Date.now() says that time has passed (libuv's cached loop time); flush() then
  // skipped the request and nothing woke it again, so it hung until its deadline.
  it('is resent even when its wake-up timer fires before Date.now() says it is due', async () => {
    const sent: { id: number; type: string }[] = []
    const requests = createRequests({
      write: (text) => {
        sent.push(JSON.parse(text))
        return true
      },
      dead: () => {},
      error: () => {},
      seq: () => 1,
      maxBytes: () => 65_536,
      maxQueued: 10,
      timeoutMs: 5_000,
      queueTimeoutMs: 60_000,
      retryFloor: () => 0,
      serverMaxMs: 300_000,
      ready: () => true,
    })
    const done = requests.request({ type: 'publish', channel: 'c', event: 'e', data: 1, idempotencyKey: 'k1' })
    expect(sent).toHaveLength(1)
    requests.reply({
      type: 'error',
      id: sent[0]!.id,
      error: { code: 'rate_limited', message: 'Slow down', temporary: true, retryAfterMs: 30 },
    })
    // From now on the wall clock lags the timers by 5 ms, as when a timer fires early.
    const real = Date.now.bind(Date)
    vi.spyOn(Date, 'now').mockImplementation(() => real() - 5)
    await vi.waitFor(() => expect(sent).toHaveLength(2), { timeout: 1_000, interval: 5 })
    expect(sent[1]).toMatchObject({ type: 'publish', idempotencyKey: 'k1' })
    requests.reply({ type: 'ack', id: sent[1]!.id, offset: 1, epoch: 'e', messageId: 'm' })
    await expect(done).resolves.toMatchObject({ offset: 1 })
  })
})
