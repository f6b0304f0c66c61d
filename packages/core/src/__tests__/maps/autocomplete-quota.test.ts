// The quota-aware path: the rate limit's `remaining` and `limit` on the client's `rateLimit` event,
// the policy as a pure function, and typing on a plan of 10 requests a minute (the emulator's
// `plans` option): autocomplete slows, then pauses, says so in `degraded`, and never meets a 429.
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  AUTOCOMPLETE_DEFAULTS,
  autocompletePlaces,
  createAutocomplete,
  degradation,
  type Degraded,
} from '../../entries/maps.js'
import type { RateLimitState } from '../../index.js'
import { setup } from '../helpers.js'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { ADDRESS, countRequests, settled, type } from './autocomplete-helpers.js'

afterEach(() => void vi.useRealTimers())

const TEN_A_MINUTE = { emulator: { plans: { maps: { limit: 10, windowMs: 60_000 } } } }

describe('degradation (AUTOCOMPLETE_DEFAULTS.quota)', () => {
  const cases: [string, Partial<RateLimitState>, Degraded | null][] = [
    ['nothing known yet', {}, null],
    ['a full bucket', { queued: 0, waitMs: 0, remaining: 100, limit: 100 }, null],
    ['25 % left is still enough', { remaining: 25, limit: 100 }, null],
    ['under 25 % left: slower', { remaining: 24, limit: 100 }, { reason: 'budget', mode: 'slower' }],
    ['3 left: slower, not yet paused', { remaining: 3, limit: 100 }, { reason: 'budget', mode: 'slower' }],
    ['2 left: paused', { remaining: 2, limit: 100 }, { reason: 'budget', mode: 'paused' }],
    ['none left: paused', { remaining: 0, limit: 10 }, { reason: 'budget', mode: 'paused' }],
    [
      'a request waits for its slot: slower',
      { queued: 1, waitMs: 500, remaining: 50, limit: 100 },
      { reason: 'queue', mode: 'slower' },
    ],
    [
      'a wait of 2 s is still slower',
      { queued: 2, waitMs: 2_000, remaining: 50, limit: 100 },
      { reason: 'queue', mode: 'slower' },
    ],
    [
      'a wait past 2 s: paused',
      { queued: 1, waitMs: 2_001, remaining: 50, limit: 100 },
      { reason: 'queue', mode: 'paused' },
    ],
    [
      'running out before waiting',
      { queued: 1, waitMs: 5_000, remaining: 0, limit: 100 },
      { reason: 'budget', mode: 'paused' },
    ],
    [
      'a long wait but low budget',
      { queued: 1, waitMs: 5_000, remaining: 10, limit: 100 },
      { reason: 'queue', mode: 'paused' },
    ],
  ]
  it.each(cases)('%s', (_name, state, expected) => {
    expect(degradation(state)).toEqual(expected)
  })

  it('takes its thresholds from a policy', () => {
    const strict = { ...AUTOCOMPLETE_DEFAULTS.quota, slowerBelow: 0.5, pausedBelow: 10 }
    expect(degradation({ remaining: 40, limit: 100 }, strict)).toEqual({ reason: 'budget', mode: 'slower' })
    expect(degradation({ remaining: 9, limit: 100 }, strict)).toEqual({ reason: 'budget', mode: 'paused' })
  })
})

describe('the maps quota, from the rateLimit event', () => {
  it("carries the budget left and the plan's limit, from the service's RateLimit headers", async () => {
    const { client } = await setup(TEN_A_MINUTE)
    const states: RateLimitState[] = []
    client.on('rateLimit', (s) => void states.push(s))
    await autocompletePlaces(client, { input: 'porto' })
    expect(states.at(-1)).toEqual({ service: 'maps', queued: 0, waitMs: 0, remaining: 9, limit: 10, bucket: 'app' })
    await autocompletePlaces(client, { input: 'lisbon' })
    expect(states.at(-1)).toMatchObject({ remaining: 8, limit: 10 })
  })

  it('slower: a low budget triples the debounce, so a 400 ms typist is asked for only at the pause', async () => {
    const { client } = await setup(TEN_A_MINUTE)
    const requests = countRequests(client)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    // Under 95 % of the plan left (after one request on a plan of 10) counts as low here.
    const ac = createAutocomplete(client, { quota: { slowerBelow: 0.95 } })
    ac.subscribe(() => {}) // the quota is followed while someone watches
    await type(ac, 'Porto', 400)
    expect(ac.getSnapshot().degraded).toEqual({ reason: 'budget', mode: 'slower' })
    const before = requests.sent()
    await type(ac, 'Lisbon', 400)
    expect(requests.sent()).toBe(before + 1) // 400 ms < 3 × 200 ms: only the final pause asked
    expect(ac.getSnapshot()).toMatchObject({ status: 'success', query: 'Lisbon' })
  })

  it('addresses typed on a plan of 10 a minute: degraded turns on, typing then asks once per pause, no 429', async () => {
    const { client } = await setup(TEN_A_MINUTE)
    const requests = countRequests(client)
    const statuses: number[] = []
    client.on('request', (e) => void (e.status && statuses.push(e.status)))
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const ac = createAutocomplete(client)
    const errors: unknown[] = []
    ac.subscribe(() => void (ac.getSnapshot().error && errors.push(ac.getSnapshot().error)))
    const addresses = ['10 Downing Street, London', '221 Baker Street, London', '100 Rua Augusta, Lisbon', ADDRESS]
    const degradedAt: number[] = []
    for (const address of [...addresses, ...addresses]) {
      ac.clear()
      await type(ac, address, 400) // slow: asks per word until an answer is complete
      if (ac.getSnapshot().degraded) degradedAt.push(requests.sent())
      if (degradedAt.length) break
    }
    expect(ac.getSnapshot().degraded).toEqual({ reason: 'budget', mode: 'paused' })
    expect(degradedAt[0]).toBeGreaterThanOrEqual(8) // 2 left of 10 (one may have refilled meanwhile)
    // Paused: typing on asks nothing until a pause of 1 s; then once.
    const before = requests.sent()
    ac.clear()
    for (const [i] of [...'Castro Street'].entries()) {
      ac.setQuery('Castro Street'.slice(0, i + 1))
      await vi.advanceTimersByTimeAsync(400)
    }
    expect(requests.sent()).toBe(before)
    expect(ac.getSnapshot()).toMatchObject({ status: 'debouncing', degraded: { mode: 'paused' } })
    await vi.advanceTimersByTimeAsync(600)
    await settled(ac)
    expect(requests.sent()).toBe(before + 1)
    expect(ac.getSnapshot()).toMatchObject({ status: 'success', query: 'Castro Street' })
    expect(statuses.filter((s) => s === 429)).toEqual([])
    expect(errors).toEqual([])
  })

  it('a 429 that comes anyway is an error in the snapshot with its Retry-After, not a crash', async () => {
    const { client, emu } = await setup()
    const ac = createAutocomplete(client, { debounceMs: 0 })
    ac.subscribe(() => {})
    emu.faults.rateLimitNext(1, { service: 'maps', retryAfterSeconds: 90 }) // longer than the client waits
    ac.setQuery('Porto')
    await waitUntil(() => ac.getSnapshot().status === 'error', { on: ac.subscribe, what: 'the error' })
    expect(ac.getSnapshot().error).toMatchObject({ name: 'RateLimitError', retryAfterMs: 90_000 })
    // The service paused the client: nothing is left until its Retry-After, and the UI is told.
    expect(ac.getSnapshot().degraded).toEqual({ reason: 'budget', mode: 'paused' })
    ac.destroy()
  })
})
