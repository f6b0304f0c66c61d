import { createECDH } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { clearPersisted, memoryStorage } from '../../entries/persist.js'
import { createPush, disablePush } from '../../entries/push.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'
import { installBrowser } from './fake-browser.js'
import {
  LIST,
  endpointOf,
  listed,
  listsSoon,
  reach,
  serviceKey,
  started,
  stopAll,
  track,
  stopPushesAfterEach,
} from './push-helpers.js'

// createPush keeps the subscription current (a restart, a rotated key, a revoked permission, the
// worker's renewal) and removes it (disable(), a logout by the key or the session's signal), against
// the browser's stand-in and the emulator over real HTTP: what the service lists is read back.

stopPushesAfterEach()

describe('createPush: keeping the subscription current', () => {
  it('at start, a subscription made earlier with the same key is registered again, without a prompt', async () => {
    const { client } = await setup()
    const first = installBrowser()
    await started(client, first).enable()
    const endpoint = endpointOf(first)
    // The next page load: same browser (same subscription), permission granted.
    stopAll()
    const again = started(client, first)
    await reach(again, 'subscribed')
    expect(first.asked()).toBe(1)
    expect(await listed(client)).toEqual([endpoint])
  })

  it("at start, a subscription made with another key (the service's was rotated): unsubscribed, subscribed again", async () => {
    const { client } = await setup()
    const browser = installBrowser({ permission: 'granted' })
    const other = createECDH('prime256v1')
    other.generateKeys()
    const old = browser.subscribedEarlier(other.getPublicKey())
    // Registered for this subject before the rotation (else it is not this subject's: see below).
    await client.request({ ...LIST, method: 'POST', body: old.toJSON() })
    const push = started(client, browser)
    await reach(push, 'subscribed')
    expect(browser.pushManager.unsubscribed).toEqual([old.endpoint])
    expect(browser.pushManager.subscribedWith).toEqual([await serviceKey(client)])
    // The old record is the service's to drop (its endpoint answers 410 on the next push).
    expect(await listed(client)).toEqual([old.endpoint, endpointOf(browser)])
    expect(endpointOf(browser)).not.toBe(old.endpoint)
  })

  it("at start, the browser's subscription another subject enabled is not registered for this one (no consent)", async () => {
    const { emu, client } = await setup()
    const browser = installBrowser()
    await started(client, browser).enable()
    const endpoint = endpointOf(browser)
    stopAll()
    // Another user of the same browser profile (the same service worker, so the same subscription).
    const { client: other } = createClientOfStyle({
      baseUrl: emu.url,
      auth: { url: `${emu.url}/dev/token?subject=usr_push_b` },
    })
    const push = started(other, browser)
    await waitUntil(() => push.getSnapshot().status !== 'subscribing', { what: 'the start-up read' })
    expect(push.getSnapshot()).toEqual({ status: 'default', reason: null, error: null })
    expect(await listed(other)).toEqual([])
    expect(await listed(client)).toEqual([endpoint]) // still the first subject's
    expect(browser.asked()).toBe(1)
    // Its own click then registers it for it too.
    expect((await push.enable()).status).toBe('subscribed')
    expect(await listed(other)).toEqual([endpoint])
  })

  it("at start, a malformed list of the subject's subscriptions: error with reason register_failed and the typed error", async () => {
    const { emu, client } = await setup()
    const browser = installBrowser()
    await started(client, browser).enable()
    stopAll()
    emu.faults.respondNext(1, { service: 'realtime', status: 200, body: '{"data":[{"endpoint":1}]}' })
    const push = started(client, browser)
    await reach(push, 'error')
    expect(push.getSnapshot()).toMatchObject({ status: 'error', reason: 'register_failed' })
    expect(push.getSnapshot().error?.code).toBe('bad_response')
  })

  it('the permission revoked in the site settings: removed on the service, denied with reason revoked', async () => {
    const { client } = await setup()
    const browser = installBrowser()
    const push = started(client, browser)
    await push.enable()
    expect(await listed(client)).toHaveLength(1)
    browser.setPermission('denied')
    await reach(push, 'denied')
    expect(push.getSnapshot().reason).toBe('revoked')
    await listsSoon(client, () => [], 'the service forgot it')
  })

  it("the worker's renewal message: the browser's new subscription is registered", async () => {
    const { client } = await setup()
    const browser = installBrowser()
    const push = started(client, browser)
    await push.enable()
    const old = endpointOf(browser)
    // pushsubscriptionchange: the browser replaced it; the worker tells the page.
    browser.pushManager.current = null
    await browser.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: Buffer.from(await serviceKey(client), 'base64url'),
    })
    browser.postFromWorker({ type: 'tandem:push-renewed' })
    // The old one is the worker's to move (its renew call); the page registers what the browser holds now.
    await listsSoon(client, () => [old, endpointOf(browser)], 'the renewed one registered')
    await reach(push, 'subscribed')
  })
})

describe('createPush: removing it', () => {
  it('disable(): unsubscribed in the browser and gone from the service (disablePush is the same)', async () => {
    const { client } = await setup()
    const browser = installBrowser()
    const push = started(client, browser)
    await push.enable()
    const endpoint = endpointOf(browser)
    await disablePush(push)
    expect(push.getSnapshot()).toEqual({ status: 'default', reason: 'disabled', error: null })
    expect(browser.pushManager.unsubscribed).toEqual([endpoint])
    expect(await listed(client)).toEqual([])
  })

  it('enable() from a click while disable() removes it: subscribed again once the removal ends', async () => {
    const { client } = await setup()
    const browser = installBrowser()
    const push = started(client, browser)
    await push.enable()
    const old = endpointOf(browser)
    const disabling = push.disable()
    expect(push.getSnapshot().status).toBe('default') // shown at once: a user may click now
    expect(await push.enable()).toEqual({ status: 'subscribed', reason: null, error: null })
    await disabling
    expect(browser.pushManager.unsubscribed).toEqual([old])
    expect(await listed(client)).toEqual([endpointOf(browser)])
    expect(endpointOf(browser)).not.toBe(old)
    expect(browser.asked()).toBe(1) // granted already: no second prompt
  })

  it('disable() while the registration is on its way: it lands, then it is removed too (nothing left on the service)', async () => {
    const { emu, client } = await setup()
    const browser = installBrowser()
    const push = started(client, browser)
    let release = () => {}
    browser.pushManager.hold = new Promise<void>((r) => (release = r))
    const enabling = push.enable()
    await waitUntil(() => browser.pushManager.subscribedWith.length === 1, { what: 'subscribing' })
    // The service stores the registration, its answer is lost; the client retries it (the same idempotency key).
    emu.faults.dropNext(1, { service: 'realtime', when: 'after' })
    let disabling: Promise<void> | undefined
    const off = client.on('retry', () => void (disabling ??= push.disable()))
    release()
    await enabling
    await waitUntil(() => disabling !== undefined, { what: 'the retry' })
    await disabling
    off()
    expect(await listed(client)).toEqual([])
    expect(push.getSnapshot()).toMatchObject({ status: 'default', reason: 'disabled' })
  })

  it("logout: the key's clearPersisted() (any tab) unsubscribes the browser and removes it on the service", async () => {
    const { client } = await setup()
    const browser = installBrowser()
    const push = started(client, browser, { key: 'acme' })
    await push.enable()
    const endpoint = endpointOf(browser)
    await clearPersisted({ key: 'acme', storage: memoryStorage() })
    await waitUntil(() => browser.pushManager.unsubscribed.includes(endpoint!), { what: 'unsubscribed' })
    await listsSoon(client, () => [], 'the service forgot it')
    expect(push.getSnapshot()).toMatchObject({ status: 'default', reason: 'logged_out' })
  })

  it("logout before this page learnt the record's id: the subject's record is found by endpoint and deleted first", async () => {
    const { client } = await setup()
    const browser = installBrowser()
    await started(client, browser).enable()
    const endpoint = endpointOf(browser)!
    stopAll()
    // The next page load, logged out in another tab while its start-up read waits for the worker.
    let ready = (_: ServiceWorkerRegistration) => {}
    const serviceWorker = new Promise<ServiceWorkerRegistration>((r) => (ready = r))
    const push = track(createPush(client, { serviceWorker, key: 'acme' }))
    await clearPersisted({ key: 'acme', storage: memoryStorage() })
    await waitUntil(() => push.getSnapshot().reason === 'logged_out', { what: 'the logout heard' })
    ready(browser.registration)
    await waitUntil(() => browser.pushManager.unsubscribed.includes(endpoint), { what: 'unsubscribed' })
    expect(await listed(client)).toEqual([]) // deleted before the browser's unsubscribe
  })

  it('logout: the session signal aborts (messenger.shutdown(), an app logout): removed, and push stops', async () => {
    const { client } = await setup()
    const browser = installBrowser()
    const session = new AbortController()
    const push = started(client, browser, { signal: session.signal })
    await push.enable()
    session.abort()
    await listsSoon(client, () => [], 'the service forgot it')
    expect(browser.pushManager.current).toBeNull()
  })
})
