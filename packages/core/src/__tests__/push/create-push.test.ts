import {
  PUSH,
  isPushPayload,
  type PushPayload,
  type PushPayloadInput,
  type PushSubscriptionPage,
} from '@tandem/contract'
import { describe, expect, it, vi } from 'vitest'
import { during, tick } from '../../../../../test/utils/wait.js'
import { createPush } from '../../entries/push.js'
import { memoryLogger, setup } from '../helpers.js'
import { installBrowser } from './fake-browser.js'
import { LIST, endpointOf, listed, reach, serviceKey, started, stopPushesAfterEach, track } from './push-helpers.js'

// createPush against a stand-in of the browser (fake-browser.ts) and the emulator over real HTTP:
// what the browser lacks, enable() and what it registers, showIfHidden. push-current.test.ts: keeping
// the subscription current and removing it.

stopPushesAfterEach()

describe('createPush: what the browser lacks', () => {
  it('is unsupported, with the reason, where there is no service worker (Node): no throw, enable() does nothing', async () => {
    const { client } = await setup()
    const push = createPush(client, { serviceWorker: undefined as unknown as ServiceWorkerRegistration })
    expect(push.getSnapshot()).toEqual({ status: 'unsupported', reason: 'no_service_worker', error: null })
    expect(await push.enable()).toEqual({ status: 'unsupported', reason: 'no_service_worker', error: null })
    await push.disable()
    expect(await push.showIfHidden({} as PushPayloadInput)).toBe(false)
  })

  it('a rejected serviceWorker (none in this page) where push is unsupported anyway: handled, not left unhandled', async () => {
    const { client } = await setup()
    const push = createPush(client, { serviceWorker: Promise.reject(new Error('no worker')) })
    expect(push.getSnapshot()).toMatchObject({ status: 'unsupported', reason: 'no_service_worker' })
    await during(10) // an unhandled rejection would fail the run here
  })

  it('is unsupported without PushManager (iOS Safari outside a home-screen app)', async () => {
    const { client } = await setup()
    const browser = installBrowser()
    vi.stubGlobal('PushManager', undefined)
    expect(started(client, browser).getSnapshot()).toMatchObject({ status: 'unsupported', reason: 'no_push_manager' })
  })

  it('is unsupported once the service worker registration fails (none in this page)', async () => {
    const { client } = await setup()
    installBrowser()
    const push = createPush(client, { serviceWorker: Promise.reject(new Error('no worker')) })
    track(push)
    await reach(push, 'unsupported')
    expect(push.getSnapshot().reason).toBe('no_service_worker')
  })
})

describe('createPush: enable()', () => {
  it('outside a click: refused with no_user_gesture, and the permission is never asked', async () => {
    const { client } = await setup()
    const browser = installBrowser({ activation: false })
    const push = started(client, browser)
    expect(await push.enable()).toEqual({ status: 'default', reason: 'no_user_gesture', error: null })
    expect(browser.asked()).toBe(0)
    expect(browser.pushManager.current).toBeNull()
  })

  it("from a click: asks, subscribes with the service's key, registers; the service lists it", async () => {
    const { client } = await setup()
    const browser = installBrowser()
    const push = started(client, browser)
    expect(push.getSnapshot().status).toBe('default')
    expect(await push.enable()).toEqual({ status: 'subscribed', reason: null, error: null })
    expect(browser.asked()).toBe(1)
    expect(browser.pushManager.subscribedWith).toEqual([await serviceKey(client)])
    expect(await listed(client)).toEqual([endpointOf(browser)])
  })

  it('the permission refused: denied (blocked), nothing subscribed or registered', async () => {
    const { client } = await setup()
    const browser = installBrowser()
    browser.answer = 'denied'
    const push = started(client, browser)
    expect(await push.enable()).toEqual({ status: 'denied', reason: 'blocked', error: null })
    expect(browser.pushManager.current).toBeNull()
    expect(await listed(client)).toEqual([])
  })

  it('a malformed key answer: error with reason bad_key and the typed error, no subscription', async () => {
    const { emu, client } = await setup()
    const browser = installBrowser({ permission: 'granted' })
    const push = started(client, browser)
    await reach(push, 'default')
    emu.faults.respondNext(1, { service: 'realtime', status: 200, body: '{"publicKey":"BAD"}' })
    const state = await push.enable()
    expect(state).toMatchObject({ status: 'error', reason: 'bad_key' })
    expect(state.error?.code).toBe('bad_response')
    expect(browser.pushManager.subscribedWith).toEqual([])
    // Not stuck: the next click subscribes.
    expect((await push.enable()).status).toBe('subscribed')
  })
})

describe('createPush: its listeners', () => {
  it('a listener that throws is reported and cannot stop it: enable() still ends subscribed, the others hear', async () => {
    const { client } = await setup()
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    const browser = installBrowser()
    const push = started(client, browser)
    const oops = new Error('a listener broke')
    let thrown = false
    push.subscribe(() => {
      if (!thrown) throw ((thrown = true), oops)
    })
    const seen: string[] = []
    push.subscribe(() => seen.push(push.getSnapshot().status))
    expect(await push.enable()).toEqual({ status: 'subscribed', reason: null, error: null })
    expect(reported).toEqual([oops])
    expect(seen).toEqual(['subscribing', 'subscribed'])
    expect(await listed(client)).toEqual([endpointOf(browser)])
  })

  it('a listener that calls disable() on seeing subscribing: told after the effects, so the attempt it replaced never starts', async () => {
    const { client } = await setup()
    const browser = installBrowser({ permission: 'granted' })
    const push = started(client, browser)
    await reach(push, 'default')
    const reads = vi.spyOn(browser.pushManager, 'getSubscription')
    let disabling: Promise<void> | undefined
    push.subscribe(() => void (push.getSnapshot().status === 'subscribing' && (disabling ??= push.disable())))
    await push.enable()
    await disabling
    await tick() // what the queue holds after the removal has started
    expect(push.getSnapshot()).toMatchObject({ status: 'default', reason: 'disabled' })
    // The removal's read only: the subscription attempt it replaced was cancelled before it began
    // (told first, the listener's removal ran before that attempt, which then subscribed after it).
    expect(reads).toHaveBeenCalledTimes(1)
  })
})

describe('createPush: the browser refuses', () => {
  it("the browser's push service refuses the subscription: error with reason subscribe_failed, nothing registered", async () => {
    const { client } = await setup()
    const browser = installBrowser()
    browser.pushManager.refuse = new DOMException('Registration failed - push service error', 'AbortError')
    const state = await started(client, browser).enable()
    expect(state).toMatchObject({ status: 'error', reason: 'subscribe_failed' })
    expect(state.error?.code).toBe('push_subscribe_failed')
    expect(await listed(client)).toEqual([])
  })
})

describe('createPush: what is registered', () => {
  it("an agent's mailboxIds and click url go with the subscription; its secrets never reach the log", async () => {
    const { logger, lines } = memoryLogger()
    const { client } = await setup({ client: { logger, logLevel: 'debug' } })
    const browser = installBrowser()
    const push = started(client, browser, { mailboxIds: ['mbx_1'], url: 'https://app.test/c/{conversationId}' })
    await push.enable()
    const [record] = (await client.request<PushSubscriptionPage>(LIST)).data
    expect(record).toMatchObject({ kind: 'agent', mailboxIds: ['mbx_1'], url: 'https://app.test/c/{conversationId}' })
    const { keys } = browser.pushManager.current!.toJSON()
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.filter((l) => l.includes(keys.auth) || l.includes(keys.p256dh))).toEqual([])
  })

  it("a customer's subscription is the customer's (no mailboxIds sent)", async () => {
    const { client } = await setup({
      client: (emu) => ({ auth: { url: `${emu.url}/dev/token?scope=support:customer&subject=cus_push` } }),
    })
    const push = started(client, installBrowser())
    expect((await push.enable()).status).toBe('subscribed')
    expect((await client.request<PushSubscriptionPage>(LIST)).data).toMatchObject([
      { kind: 'customer', mailboxIds: null },
    ])
  })

  it('options that break the contract are refused at once: too many mailboxIds, a url that is not https', async () => {
    const { client } = await setup()
    const browser = installBrowser()
    const mailboxIds = Array.from({ length: PUSH.mailboxIds + 1 }, (_, i) => `mbx_${i}`)
    expect(() => started(client, browser, { mailboxIds })).toThrow(/mailboxIds/)
    expect(() => started(client, browser, { url: 'http://app.test/' })).toThrow(/url/)
  })
})

describe('createPush: showIfHidden', () => {
  const payload: PushPayload = {
    v: 1,
    type: 'message',
    channel: 'support:customer:cus_1',
    messageId: 'msg_1',
    conversationId: 'cnv_1',
    title: 'Ada',
    body: 'Hello',
    url: null,
    sentAt: '2026-01-01T00:00:00.000Z',
  }

  it('shows a checked payload only when hiddenTab is on, the page hidden and the permission granted', async () => {
    const { client } = await setup()
    const browser = installBrowser({ permission: 'granted' })
    const off = started(client, browser)
    const on = started(client, browser, { hiddenTab: true })
    expect(await on.showIfHidden(payload)).toBe(false) // visible
    browser.visibility = 'hidden'
    expect(await off.showIfHidden(payload)).toBe(false) // the option is off by default
    expect(await on.showIfHidden({ ...payload, v: 2 })).toBe(false) // not the contract's
    expect(await on.showIfHidden({ ...payload, messageId: 7 } as unknown as PushPayload)).toBe(false)
    expect(await on.showIfHidden(payload)).toBe(true)
    expect(browser.shown).toEqual([
      { title: 'Ada', options: { body: 'Hello', tag: 'cnv_1', data: { tandem: payload } } },
    ])
  })

  it('a message is shaped as the service would push it: its text shortened, the controller’s url for none', async () => {
    const { client } = await setup()
    const browser = installBrowser({ permission: 'granted' })
    const url = 'https://app.example/inbox?c={conversationId}'
    const on = started(client, browser, { hiddenTab: true, url })
    browser.visibility = 'hidden'
    const message = {
      channel: 'support:customer:cus_1',
      messageId: 'thr_1',
      conversationId: 'cnv_1',
      title: 'Ada',
      text: 'x'.repeat(PUSH.bodyChars + 50),
      url: null,
      sentAt: '2026-01-01T00:00:00.000Z',
    }
    expect(await on.showIfHidden(message)).toBe(true)
    const [shown] = browser.shown as { options: { body: string; data: { tandem: PushPayload } } }[]
    expect(isPushPayload(shown!.options.data.tandem)).toBe(true)
    expect(shown!.options.data.tandem.url).toBe('https://app.example/inbox?c=cnv_1')
    expect(Array.from(shown!.options.body)).toHaveLength(PUSH.bodyChars)
    expect(await on.showIfHidden({ ...message, text: 7 } as unknown as PushPayloadInput)).toBe(false)
  })
})
