// handlePush's `pushsubscriptionchange`, against the emulator over real HTTP: the new subscription
// is registered by the contract's tokenless renew (the old one's auth secret the proof), the open
// tabs are told (`tandem:push-renewed`), and a failure is logged once, never retried.
import { createECDH, randomBytes } from 'node:crypto'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { handlePush, PUSH_RENEWED } from '../../entries/push-worker.js'
import { createStandIn, subscription } from './stand-in.js'

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
/** Keys of the contract's form: a P-256 point and a 16-byte secret. */
const keys = () => ({ p256dh: b64url(createECDH('prime256v1').generateKeys()), auth: b64url(randomBytes(16)) })

let emu: Emulator
let token: string
const authorized = (init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
})
const endpoints = async () => {
  const page = (await (await fetch(`${emu.url}/realtime/v1/push/subscriptions`, authorized())).json()) as {
    data: { endpoint: string }[]
  }
  return page.data.map((s) => s.endpoint)
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 1 })
  const answer = await fetch(`${emu.url}/dev/token`, { method: 'POST' })
  token = ((await answer.json()) as { token: string }).token
})
afterAll(() => emu?.close())
afterEach(() => {
  vi.restoreAllMocks()
})

describe('handlePush: pushsubscriptionchange', () => {
  it('registers the new subscription in place of the old with no token, then tells the open tabs', async () => {
    const oldKeys = keys()
    const old = subscription('https://push.test/sub/old-1', oldKeys)
    const registered = await fetch(
      `${emu.url}/realtime/v1/push/subscriptions`,
      authorized({ method: 'POST', body: JSON.stringify({ endpoint: old.endpoint, keys: oldKeys }) }),
    )
    expect(registered.status).toBe(201)

    const w = createStandIn()
    const tab = w.tab('https://app.test/')
    const posted = vi.spyOn(globalThis, 'fetch')
    handlePush(w.self, { baseUrl: `${emu.url}/` })
    await w.change({ oldSubscription: old, newSubscription: subscription('https://push.test/sub/new-1', keys()) })
    // One request, without a token: the service worker has none.
    const [url, init] = posted.mock.calls[0]!
    expect([posted.mock.calls.length, url]).toEqual([1, `${emu.url}/realtime/v1/push/subscriptions/renew`])
    expect(JSON.stringify(init?.headers)).not.toMatch(/authorization/i)
    expect(await endpoints()).toEqual(['https://push.test/sub/new-1'])
    expect(tab.messages).toEqual([{ type: PUSH_RENEWED }])
  })

  it('without a new subscription it subscribes again with the old one’s options', async () => {
    const oldKeys = keys()
    const old = subscription('https://push.test/sub/old-2', oldKeys)
    await fetch(
      `${emu.url}/realtime/v1/push/subscriptions`,
      authorized({ method: 'POST', body: JSON.stringify({ endpoint: old.endpoint, keys: oldKeys }) }),
    )
    const w = createStandIn()
    w.willSubscribe(subscription('https://push.test/sub/new-2', keys()))
    handlePush(w.self, { baseUrl: emu.url })
    await w.change({ oldSubscription: old, newSubscription: null })
    expect(w.subscribed).toEqual([old.options])
    expect(await endpoints()).toContain('https://push.test/sub/new-2')
    expect(await endpoints()).not.toContain(old.endpoint)
  })

  it('a refusal (a wrong secret: 404) or a failed subscribe is logged once, never retried; the tabs are told anyway', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const posted = vi.spyOn(globalThis, 'fetch')
    const w = createStandIn()
    const tab = w.tab('https://app.test/')
    handlePush(w.self, { baseUrl: emu.url })
    const unknown = subscription('https://push.test/sub/never-registered', keys())
    await w.change({ oldSubscription: unknown, newSubscription: subscription('https://push.test/sub/x', keys()) })
    await w.change({ oldSubscription: unknown, newSubscription: null }) // subscribe fails (no permission)
    await w.change({ oldSubscription: null, newSubscription: null }) // nothing proves who this was
    expect(posted).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^\[tandem\] push_renew_failed/)])
    expect(tab.messages).toEqual([{ type: PUSH_RENEWED }, { type: PUSH_RENEWED }, { type: PUSH_RENEWED }])
    expect(await endpoints()).not.toContain('https://push.test/sub/x')
  })
})
