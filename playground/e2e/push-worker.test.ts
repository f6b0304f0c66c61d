// Push in the playground's service worker (src/sw/sw.ts: the app shell's, with handlePush), in
// Chromium, against the PRODUCTION build (only it has the worker). A push is delivered by the
// DevTools protocol (`ServiceWorker.deliverPushMessage`): no push service is involved, the worker
// gets the bytes as if one had sent them. What the worker shows is read back from the page with
// `registration.getNotifications()`; what it calls is counted by wrapping the worker's own
// prototypes from a CDP evaluation in the worker (Playwright's `Worker.evaluate`). docs/push.md
// says what Chromium can and cannot do here. No sleeps.
import { createECDH } from 'node:crypto'
import type { PushPayload } from '@tandem/contract'
import type { Worker } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hasChromium, useHarness, type TestPage } from './harness.js'
import { handled, shownIds, watchWorker } from './push-harness.js'

const RUN = Date.now().toString(36)

interface Pushes {
  page: TestPage
  sw: Worker
  origin: string
  deliver(data: string): Promise<void>
  /** The notifications up, as the page reads them: [messageId, tag, title]. */
  shown(): Promise<string[][]>
}

/** The page controlled by the worker, notifications allowed, the worker's registration found over CDP. */
async function open(harness: ReturnType<typeof useHarness>, user: string): Promise<Pushes> {
  const page = await harness.open(`/?user=${user}#support`)
  const { sw, origin, deliver } = await watchWorker(page)
  // The worker's console.warn too, counted in the worker.
  await sw.evaluate(() => {
    const scope = self as unknown as { warned: string[] }
    scope.warned = []
    const warn = console.warn
    console.warn = (...args: unknown[]) => {
      scope.warned.push(args.join(' '))
      warn(...args)
    }
  })
  return {
    page,
    sw,
    origin,
    deliver,
    shown: () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => {
          const p = (n.data as { tandem: PushPayload }).tandem
          return [p.messageId, n.tag, n.title]
        }),
      ),
  }
}

const payload = (fields: Partial<PushPayload>): string =>
  JSON.stringify({
    v: 1,
    type: 'message',
    channel: 'support:conversations',
    messageId: 'thr_1',
    conversationId: 'cnv_1',
    title: 'Ada',
    body: 'Where is my parcel?',
    url: null,
    sentAt: '2026-11-29T12:00:00.000Z',
    ...fields,
  } satisfies PushPayload)

describe.skipIf(!hasChromium)('push in the playground’s service worker, in Chromium', () => {
  const harness = useHarness({ serve: 'production' })

  it('shows exactly one notification per message id; a newer message of a conversation replaces the older', async () => {
    const p = await open(harness, `e2e-push-${RUN}`)
    await p.deliver(payload({}))
    await p.deliver(payload({}))
    await p.deliver(payload({ messageId: 'thr_2', conversationId: 'cnv_2', title: 'Grace' }))
    await handled(p.sw, 'thr_2')
    await p.deliver(payload({})) // thr_1 a third time, after another message
    await p.deliver(payload({ messageId: 'thr_3', conversationId: 'cnv_2', sentAt: '2026-11-29T12:01:00.000Z' }))
    await handled(p.sw, 'thr_3')
    expect(await shownIds(p.sw)).toEqual(['thr_1', 'thr_2', 'thr_3'])
    // thr_3 took thr_2's place (the same conversation, the same tag); the playground's strings.
    expect((await p.shown()).sort()).toEqual([
      ['thr_1', 'cnv_1', 'Ada · Tandem playground'],
      ['thr_3', 'cnv_2', 'Ada · Tandem playground'],
    ])
    expect(p.page.errors).toEqual([])
  })

  it('a malformed push shows nothing and the worker logs once per reason', async () => {
    const p = await open(harness, `e2e-push-bad-${RUN}`)
    for (const data of ['not json', '{"v":1', payload({ messageId: 7 as unknown as string }), '{"v":2}', 'still not'])
      await p.deliver(data)
    await p.deliver(payload({ messageId: 'thr_9' })) // a good one after them: they were all handled
    await handled(p.sw, 'thr_9')
    expect(await p.shown()).toEqual([['thr_9', 'cnv_1', 'Ada · Tandem playground']])
    const warned = await p.sw.evaluate(() => (self as unknown as { warned: string[] }).warned)
    expect(warned).toEqual([expect.stringMatching(/push_not_json/), expect.stringMatching(/push_wrong_shape/)])
  })

  it('a click focuses the tab already at the URL, opens one otherwise, and never another origin', async () => {
    const user = `e2e-push-click-${RUN}`
    const p = await open(harness, user)
    const at = `${p.origin}/?user=${user}`
    await p.deliver(payload({ url: at }))
    await p.deliver(payload({ messageId: 'thr_2', conversationId: 'cnv_2', url: `${p.origin}/customer.html` }))
    await p.deliver(payload({ messageId: 'thr_3', conversationId: 'cnv_3', url: 'https://evil.example/' }))
    // Pushes are handled side by side: each one's notification is waited for.
    for (const id of ['thr_1', 'thr_2', 'thr_3']) await handled(p.sw, id)
    // CDP cannot click a notification. The worker's own listener gets a NotificationEvent made in
    // the worker (its waitUntil kept by the test: an untrusted event's throws), and the real
    // WindowClient.focus / Clients.openWindow are recorded, then called: Chromium refuses both to
    // an event it did not dispatch (no user gesture), which is recorded too.
    const clicks = await p.sw.evaluate(async () => {
      type Scope = { registration: ServiceWorkerRegistration; clients: object; dispatchEvent(e: Event): boolean }
      const scope = self as unknown as Scope
      const calls: string[] = []
      const outcome = (p: Promise<unknown>) =>
        p.then(
          () => calls.push('  done'),
          (e: Error) => calls.push(`  refused: ${e.message}`),
        )
      const clients = Object.getPrototypeOf(scope.clients) as { openWindow(url: string): Promise<unknown> }
      const openWindow = clients.openWindow
      clients.openWindow = function (url) {
        calls.push(`open ${url}`)
        return outcome(openWindow.call(this, url))
      }
      const tabProto = (globalThis as unknown as { WindowClient: { prototype: { focus(): Promise<unknown> } } })
        .WindowClient.prototype
      const focus = tabProto.focus
      tabProto.focus = function (this: { url: string }) {
        calls.push(`focus ${this.url}`)
        return outcome(focus.call(this))
      }
      const Click = (globalThis as unknown as { NotificationEvent: new (type: string, init: object) => Event })
        .NotificationEvent
      for (const n of await scope.registration.getNotifications()) {
        const held: Promise<unknown>[] = []
        const event = new Click('notificationclick', { notification: n })
        Object.defineProperty(event, 'waitUntil', { value: (p: Promise<unknown>) => held.push(p) })
        calls.push(`click ${(n.data as { tandem: { messageId: string } }).tandem.messageId}`)
        scope.dispatchEvent(event)
        await Promise.all(held)
      }
      return { calls, left: (await scope.registration.getNotifications()).length }
    })
    expect(clicks.left).toBe(0) // each closed
    expect(clicks.calls.filter((c) => !c.startsWith('  '))).toEqual([
      'click thr_1',
      `focus ${p.page.url()}`,
      'click thr_2',
      `open ${p.origin}/customer.html`,
      'click thr_3',
      `open ${p.origin}/`,
    ])
    // What Chromium says to a click it did not dispatch (docs/push.md).
    expect(clicks.calls.filter((c) => c.startsWith('  ')).map((c) => c.trim())).toEqual([
      'refused: Not allowed to focus a window.',
      'refused: Not allowed to open a window.',
      'refused: Not allowed to open a window.',
    ])
  })

  it("Chromium's own PushManager: permission granted, subscribe refused in these (off-the-record) contexts", async () => {
    const p = await open(harness, `e2e-push-subscribe-${RUN}`)
    const key = createECDH('prime256v1').generateKeys().toString('base64url')
    const result = await p.page.evaluate(async (key) => {
      const registration = await navigator.serviceWorker.ready
      const options = { userVisibleOnly: true, applicationServerKey: key }
      const permission = await registration.pushManager.permissionState(options)
      const subscribed = await registration.pushManager.subscribe(options).then(
        (s) => `subscribed: ${s.endpoint}`,
        (e: DOMException) => `${e.name}: ${e.message}`,
      )
      return {
        permission,
        notification: Notification.permission,
        subscribed,
        after: await registration.pushManager.getSubscription(),
      }
    }, key)
    expect(result).toEqual({
      permission: 'granted',
      notification: 'granted',
      subscribed: 'AbortError: Registration failed - permission denied',
      after: null,
    })
  })
})
