// Push from end to end, in one piece (issue 47): the emulator's real Web Push, encrypted for a
// browser subscription and POSTed to a local HTTPS push service (test/utils/push-receiver.ts), is
// decrypted there independently (http_ece, not web-push) and handed, as the push service would, to
// the playground's real service worker in Chromium (CDP `ServiceWorker.deliverPushMessage`, as in
// push-worker.test.ts). It proves: nothing is pushed while the customer has a connection open;
// once closed, one push per reply; and the service's own payload is what the worker accepts and
// shows, once per message even when delivered twice. The emulator is the test's own (Node side),
// not the playground's: only it has a push agent that trusts the receiver. No sleeps decide it.
import { CUSTOMER_SCOPE, type PushPayload } from '@tandem/contract'
import { SEEDED } from '@tandem/contract/spec'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { createRealtime } from '@tandem/realtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import {
  browserSubscription,
  decryptPush,
  startPushReceiver,
  type PushReceiver,
} from '../../test/utils/push-receiver.js'
import { during, slack } from '../../test/utils/wait.js'
import { hasChromium, useHarness } from './harness.js'
import { handled, shownIds, watchWorker } from './push-harness.js'

const RUN = Date.now().toString(36)
// Long enough that the test's steps land inside it on a loaded machine; the waits end on events.
const GRACE_MS = slack(300)

describe.skipIf(!hasChromium)('push from the emulator to the playground’s service worker', () => {
  const harness = useHarness({ serve: 'production' })
  let emu: Emulator
  let receiver: PushReceiver
  beforeAll(async () => {
    receiver = await startPushReceiver()
    emu = await startEmulator({ port: 0, host: '127.0.0.1', push: { graceMs: GRACE_MS, agent: receiver.agent } })
  })
  afterAll(async () => {
    await emu?.close()
    await receiver?.close()
  })

  const api = async <T>(path: string, token: string, json: unknown, status: number): Promise<T> => {
    const res = await fetch(`${emu.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    })
    const text = await res.text()
    if (res.status !== status) throw new Error(`${path}: expected ${status}, got ${res.status}: ${text}`)
    return JSON.parse(text) as T
  }
  const reply = async (text: string) =>
    api<{ id: string }>(
      `/support/v1/conversations/${SEEDED.myConversationId}/reply`,
      await emu.mintToken({ subject: SEEDED.agentId, scope: ['support', 'realtime'] }),
      { text },
      201,
    )

  /** The page controlled by the worker, and the worker with its showNotification calls counted. */
  async function openWorker() {
    const page = await harness.open(`/?user=e2e-push-chain-${RUN}#support`)
    const { sw, deliver } = await watchWorker(page)
    return { page, sw, deliver }
  }

  it('the service’s encrypted push, decrypted independently, is shown by the worker once per message', async () => {
    const customer = await emu.mintToken({ subject: SEEDED.customerId, scope: [CUSTOMER_SCOPE] })
    const sub = browserSubscription(receiver.endpoint())
    await api('/realtime/v1/push/subscriptions', customer, { endpoint: sub.endpoint, keys: sub.keys }, 201)

    // (a) The customer has a tab open: an agent's reply is not pushed, not even after the grace.
    const rt = createRealtime(
      { auth: { fetchToken: async () => ({ token: customer, expiresIn: 600 }) }, url: `${emu.url}/realtime` },
      { WebSocket },
    )
    rt.connect()
    await emu.realtime.waitFor(() => emu.realtime.stats.connections.open === 1, { timeoutMs: slack(5000) })
    const whileOpen = await reply('While the tab was open')
    const skipped = await emu.push.waitFor((d) => d.messageId === whileOpen.id, { timeoutMs: slack(5000) })
    expect(skipped.status).toBe('skipped-open')
    await during(GRACE_MS * 2)
    expect(receiver.at(sub.endpoint).length, 'pushes while the tab was open').toBe(0)

    // (b) The tab closed (on the service's side too): each reply is pushed, exactly once.
    rt.close()
    await emu.realtime.waitFor(() => emu.realtime.stats.connections.open === 0, { timeoutMs: slack(5000) })
    const first = await reply('Your parcel left the depot.')
    const second = await reply('It arrives tomorrow.')
    await receiver.waitFor(() => receiver.at(sub.endpoint).length === 2, 'two pushes')
    const payloads = receiver.at(sub.endpoint).map((hit) => decryptPush(hit.body, sub) as PushPayload)
    expect(payloads.map((p) => [p.messageId, p.conversationId])).toEqual([
      [first.id, SEEDED.myConversationId],
      [second.id, SEEDED.myConversationId],
    ])

    // The decrypted JSON, to the playground's worker; the first twice (a push service may redeliver).
    const w = await openWorker()
    const [one, two] = payloads.map((p) => JSON.stringify(p))
    await w.deliver(one!)
    await w.deliver(two!)
    await handled(w.sw, second.id)
    await w.deliver(one!)
    // The redelivery is handled before this one's notification is up: handled side by side, in order.
    await w.deliver(JSON.stringify({ ...payloads[0]!, messageId: 'thr_chain_marker', conversationId: 'cnv_marker' }))
    await handled(w.sw, 'thr_chain_marker')
    expect(await shownIds(w.sw)).toEqual([first.id, second.id, 'thr_chain_marker'])
    // One conversation, one tag: the newer reply took the older's place.
    const up = await w.page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => {
        const p = (n.data as { tandem: PushPayload }).tandem
        return [p.messageId, n.tag, n.title, n.body]
      }),
    )
    expect(up.filter(([, tag]) => tag === SEEDED.myConversationId)).toEqual([
      [second.id, SEEDED.myConversationId, `${payloads[1]!.title} · Tandem playground`, 'It arrives tomorrow.'],
    ])
    // Nothing more was pushed meanwhile: two replies, two pushes.
    expect(receiver.at(sub.endpoint)).toHaveLength(2)
    expect(w.page.errors).toEqual([])
  })
})
