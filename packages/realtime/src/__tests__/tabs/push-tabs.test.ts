// Push only when no tab is open (docs/push.md), end to end through the SDK's shared connection:
// the tabs of one user (shareAcrossTabs, tab-env.ts) hold one socket, and the service must count a
// follower tab as open. The emulator sends real Web Push (web-push) to a local HTTPS receiver;
// each push is decrypted with http_ece. The service-level rule is packages/emulator's rule.test.ts.
import { CUSTOMER_SCOPE, customerChannelName, type PushSubscriptionRecord, type Thread } from '@tandem/contract'
import { SEEDED } from '@tandem/contract/spec'
import type { PushDelivery } from '@tandem/emulator'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  browserSubscription,
  decryptPush,
  startPushReceiver,
  type BrowserSubscription,
  type PushReceiver,
} from '../../../../../test/utils/push-receiver.js'
import { during, slack, waitUntil } from '../../../../../test/utils/wait.js'
import { shareAcrossTabs, type TabShare } from '../../tabs.js'
import type { Message } from '../../types.js'
import { client, collect, untilSubscribed, useEmulator } from '../helpers.js'
import { createBrowser } from './tab-env.js'

const GRACE_MS = slack(300)
let receiver: PushReceiver | undefined
beforeAll(async () => {
  receiver = await startPushReceiver()
})
afterAll(() => receiver?.close())
const rx = () => receiver ?? expect.unreachable('receiver not started')
// The agent is told in the options; the receiver is started in the beforeAll above, before the emulator's.
const emu = useEmulator({
  push: {
    graceMs: GRACE_MS,
    get agent() {
      return rx().agent
    },
  },
})
const shares: TabShare[] = []
afterEach(() => {
  for (const s of shares.splice(0)) s.stop()
  emu().reset()
})

const CONVERSATION = SEEDED.myConversationId
const customerToken = () => emu().mintToken({ subject: SEEDED.customerId, scope: [CUSTOMER_SCOPE] })
const agentToken = () => emu().mintToken({ subject: SEEDED.agentId, scope: ['support', 'realtime'] })

async function post<T>(path: string, token: string, body: unknown): Promise<T> {
  const res = await fetch(`${emu().url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${text}`)
  return JSON.parse(text) as T
}

/** A browser's subscription on the receiver, registered with the service as `token`'s subject's. */
async function subscribe(token: string): Promise<BrowserSubscription> {
  const sub = browserSubscription(rx().endpoint())
  await post<PushSubscriptionRecord>('/realtime/v1/push/subscriptions', token, {
    endpoint: sub.endpoint,
    keys: sub.keys,
  })
  return sub
}

/** A tab of one user: its client runs on the tabs' one connection (the leading tab's socket). */
function openTab(browser: ReturnType<typeof createBrowser>, subject: string, scope: string[]) {
  const tab = browser.tab()
  const share = shareAcrossTabs({ key: subject, locks: tab.locks, BroadcastChannel: tab.BroadcastChannel })
  shares.push(share)
  const rt = client(emu(), { subject, scope }, { tabs: share })
  return { share, rt, close: () => (share.stop(), rt.close()) }
}

const reply = async (text: string) =>
  post<Thread>(`/support/v1/conversations/${CONVERSATION}/reply`, await agentToken(), { text })
const customerSays = async (text: string) =>
  post<{ id: string }>(`/support/v1/me/conversations/${CONVERSATION}/messages`, await customerToken(), { text })

const settled = (messageId: string) =>
  emu().push.waitFor((d) => d.messageId === messageId && d.status !== 'pending', { timeoutMs: slack(5_000) })
const statuses = (messageId: string) =>
  emu()
    .push.deliveries()
    .filter((d: PushDelivery) => d.messageId === messageId)
    .map((d) => d.status)
const pushedIds = (sub: BrowserSubscription) =>
  rx()
    .at(sub.endpoint)
    .map((h) => (decryptPush(h.body, sub) as { messageId: string }).messageId)
const untilSockets = (n: number) =>
  waitUntil(() => emu().realtime.stats.connections.open === n, {
    timeoutMs: slack(5_000),
    what: `${n} open sockets (have ${emu().realtime.stats.connections.open})`,
  })

describe('push and the tabs of one user', () => {
  it('a customer: nothing while a follower tab holds the shared connection; one push per reply once every tab is closed', async () => {
    const sub = await subscribe(await customerToken())
    const browser = createBrowser()
    const channel = customerChannelName(SEEDED.customerId)
    const leader = openTab(browser, SEEDED.customerId, [CUSTOMER_SCOPE])
    const follower = openTab(browser, SEEDED.customerId, [CUSTOMER_SCOPE])
    collect(leader.rt, channel)
    const heard: Message[] = collect(follower.rt, channel).messages
    await Promise.all([untilSubscribed(leader.rt.channel(channel)), untilSubscribed(follower.rt.channel(channel))])
    expect(emu().realtime.stats.connections.open).toBe(1)

    // The leading tab closes; a reply comes while the follower takes the connection over.
    leader.close()
    const inHandover = await reply('While the follower takes over')
    await waitUntil(() => follower.share.role === 'leader', { timeoutMs: slack(5_000), what: 'the follower leads' })
    await untilSubscribed(follower.rt.channel(channel))
    const whileFollowerOpen = await reply('While the follower is open')
    expect((await settled(whileFollowerOpen.id)).status).toBe('skipped-open')
    expect(['skipped-open', 'cancelled']).toContain((await settled(inHandover.id)).status)
    // The open tab hears both replies live: that is why neither is pushed.
    await waitUntil(
      () => [inHandover.id, whileFollowerOpen.id].every((id) => heard.some((m) => JSON.stringify(m.data).includes(id))),
      { timeoutMs: slack(5_000), what: 'both replies in the open tab' },
    )

    // The last tab closes: each reply is pushed once, after the grace.
    follower.close()
    await untilSockets(0)
    const first = await reply('First after closing')
    const second = await reply('Second after closing')
    await rx().waitFor(() => rx().at(sub.endpoint).length >= 2, 'two pushes')
    await during(GRACE_MS * 2)
    expect(pushedIds(sub)).toEqual([first.id, second.id])
    expect(statuses(first.id)).toEqual(['sent'])
    expect(statuses(inHandover.id)).not.toContain('sent')
  })

  it('an agent: nothing while a tab is open; one push for the customer’s message once it is closed; none after a reload inside the grace', async () => {
    const sub = await subscribe(await agentToken())
    const browser = createBrowser()
    const scope = ['support', 'realtime']
    const tab = openTab(browser, SEEDED.agentId, scope)
    // A tab connects once it listens to something (any channel: the rule counts connections).
    tab.rt.channel('room:agents').subscribe(() => {})
    await untilSubscribed(tab.rt.channel('room:agents'))
    const whileOpen = await customerSays('Is anyone there?')
    expect((await settled(whileOpen.id)).status).toBe('skipped-open')

    tab.close()
    await untilSockets(0)
    const alone = await customerSays('Hello again')
    await rx().waitFor(() => rx().at(sub.endpoint).length === 1, 'one push')

    // A reload: the message comes with no tab open, and a tab opens inside the grace.
    const beforeReload = await customerSays('Just before the reload')
    const reloaded = openTab(createBrowser(), SEEDED.agentId, scope)
    reloaded.rt.channel('room:agents').subscribe(() => {})
    expect((await settled(beforeReload.id)).status).toBe('cancelled')
    await during(GRACE_MS * 2)
    expect(pushedIds(sub)).toEqual([alone.id])
  })
})
