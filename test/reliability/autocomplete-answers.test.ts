// Issue 43, row 4: a maps service that answers the autocomplete with 200s of the wrong shape (no
// `suggestions`, `suggestions: null`, a suggestion whose `mainText` is a number, a bare string).
// Through the public API (createBaseClient + createAutocomplete) against a hostile HTTP server on
// 127.0.0.1: each answer is one request and a typed error in the store (`bad_response`, with the
// answer's status and request id), never a loop and never a throw from setQuery; the failed input
// and the inputs extending it are not asked again until its backoff lapses, then once.
import { createBaseClient } from '@tandem/core/client'
import { createAutocomplete, type Autocomplete } from '@tandem/core/maps'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { serve } from '../utils/http-server.js'
import { during, slack, waitUntil } from '../utils/wait.js'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  vi.useRealTimers()
  for (const c of cleanups.splice(0).reverse()) await c()
})

const SUGGESTION = {
  id: 'street:us-mountain-view-amphitheatre-parkway',
  kind: 'street',
  text: 'Amphitheatre Parkway, Mountain View, United States',
  mainText: 'Amphitheatre Parkway',
  secondaryText: 'Mountain View, United States',
  location: { lat: 37.42, lng: -122.08 },
}

/** A maps service whose autocomplete answers `body` (JSON text) with 200, each with its own request id. */
async function hostileMaps(body: string): Promise<{ url: string; requests: () => number }> {
  let requests = 0
  const { url, close } = await serve((req, res) => {
    if (!req.url?.startsWith('/maps/v1/places:autocomplete')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found"}}')
      return
    }
    requests++
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${requests}` }).end(body)
  })
  cleanups.push(close)
  return { url, requests: () => requests }
}

function store(url: string, failureBackoff?: { baseMs: number; maxMs: number }): Autocomplete {
  const client = createBaseClient({
    baseUrl: url,
    auth: { fetchToken: async () => ({ token: 't', expiresIn: 3_600 }) },
  })
  const ac = createAutocomplete(client, { debounceMs: 5, ...(failureBackoff ? { failureBackoff } : {}) })
  cleanups.push(
    ac.subscribe(() => {}),
    () => ac.destroy(),
  )
  return ac
}

const untilError = (ac: Autocomplete, what: string) =>
  waitUntil(() => ac.getSnapshot().status === 'error', { on: ac.subscribe, what, timeoutMs: slack(5_000) })

const BAD: [string, string][] = [
  ['an object without suggestions', '{}'],
  ['suggestions: null', '{"suggestions":null,"complete":true}'],
  [
    'a suggestion whose mainText is a number',
    JSON.stringify({ suggestions: [{ ...SUGGESTION, mainText: 42 }], complete: true }),
  ],
  ['a bare string', '"lol"'],
]

describe('autocomplete answers that are not the contract’s', () => {
  it.each(BAD)('%s: one request, bad_response with its request id, no loop, no throw', async (_name, body) => {
    const maps = await hostileMaps(body)
    const ac = store(maps.url)
    ac.setQuery('amph')
    await untilError(ac, `the store's error for ${body}`)
    const { error, status } = ac.getSnapshot()
    expect(status).toBe('error')
    expect(error).toMatchObject({ name: 'ApiError', code: 'bad_response', status: 200, requestId: 'req_1' })
    // Typing on while the answer's failure holds: no throw, no request, the same error shown.
    for (const q of ['amphi', 'amphit', 'amph', 'amphitheatre'])
      expect(() => ac.setQuery(q), `setQuery(${q}) after ${body}`).not.toThrow()
    expect(ac.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'bad_response' } })
    await during(slack(500)) // the window a loop would fill (it sent 67 requests in 0.45 s for "lol")
    expect(maps.requests(), `requests for ${body}`).toBe(1)
  })

  it('the failure backs off per input, doubling: typing on asks nothing while it holds, and once after it lapses', async () => {
    const maps = await hostileMaps('{}')
    // Only the clock the backoff reads is moved by hand; the debounce and the HTTP stay on real timers.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
    const ac = store(maps.url, { baseMs: 60_000, maxMs: 120_000 })
    ac.setQuery('amph')
    await untilError(ac, 'the first failure')
    expect(maps.requests()).toBe(1)

    vi.setSystemTime(Date.now() + 59_000) // within the first 60 s
    for (const q of ['amphi', 'amphit', 'amphith']) ac.setQuery(q)
    await during(slack(200))
    expect(maps.requests(), 'typing on while the failure holds').toBe(0 + 1)
    expect(ac.getSnapshot()).toMatchObject({ status: 'error', query: 'amphith', error: { requestId: 'req_1' } })

    vi.setSystemTime(Date.now() + 2_000) // lapsed: the next keystroke asks, once
    ac.setQuery('amphithe')
    await waitUntil(() => maps.requests() === 2 && ac.getSnapshot().status === 'error', {
      on: ac.subscribe,
      what: 'one request after the backoff lapsed',
      timeoutMs: slack(5_000),
    })
    expect(ac.getSnapshot().error).toMatchObject({ code: 'bad_response', requestId: 'req_2' })
    await during(slack(200))
    expect(maps.requests(), 'no more than one').toBe(2)

    // The same input failing again waits twice as long (120 s, the cap), not 60 s.
    vi.setSystemTime(Date.now() + 61_000) // 'amph' lapsed long ago: asked again, and fails again
    ac.setQuery('amph')
    await waitUntil(() => maps.requests() === 3, { what: 'amph asked again', timeoutMs: slack(5_000) })
    await untilError(ac, 'the second failure of amph')
    vi.setSystemTime(Date.now() + 61_000)
    ac.setQuery('amph')
    await during(slack(200))
    expect(maps.requests(), 'amph held 120 s after its second failure').toBe(3)
    vi.setSystemTime(Date.now() + 60_000)
    ac.setQuery('amph')
    await waitUntil(() => maps.requests() === 4, { what: 'amph asked after 120 s', timeoutMs: slack(5_000) })
  })

  it('a good answer after a bad one is served, and typing on is served from it', async () => {
    let bad = true
    const { url, close } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_x' })
      res.end(bad ? '{"suggestions":null}' : JSON.stringify({ suggestions: [SUGGESTION], complete: true }))
    })
    cleanups.push(close)
    const ac = store(url, { baseMs: 0, maxMs: 0 })
    ac.setQuery('amph')
    await untilError(ac, 'the bad answer')
    bad = false
    ac.setQuery('amphi')
    await waitUntil(() => ac.getSnapshot().status === 'success', { on: ac.subscribe, what: 'the good answer' })
    expect(() => ac.setQuery('amphitheatre')).not.toThrow()
    expect(ac.getSnapshot()).toMatchObject({ status: 'success', suggestions: [{ mainText: 'Amphitheatre Parkway' }] })
  })
})
