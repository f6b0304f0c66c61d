// One emulator per test file that pushes to a local HTTPS receiver (test/utils/push-receiver.ts), and the
// people of the seeded data: the customer of SEEDED.myConversationId, an agent, and their calls.
import { CUSTOMER_SCOPE, type PushSubscriptionRecord, type Thread } from '@tandem/contract'
import { SEEDED } from '@tandem/contract/spec'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { startEmulator } from '../../start.js'
import type { Emulator } from '../../types.js'
import type { PushDelivery, PushOptions } from '../../push/module.js'
import { slack } from '../../../../../test/utils/wait.js'
import { call } from '../helpers.js'
import { TestSocket } from '../realtime-helpers.js'
import {
  browserSubscription,
  startPushReceiver,
  type Behaviour,
  type BrowserSubscription,
  type PushReceiver,
} from '../../../../../test/utils/push-receiver.js'

export interface PushFixture {
  emu(): Emulator
  receiver(): PushReceiver
  /** The seeded customer's token (SEEDED.customerId, named Ana). */
  customer(): Promise<string>
  /** An agent's token (`support`, `realtime`; SEEDED.agentId unless told). */
  agent(subject?: string): Promise<string>
  /** A browser subscription on the receiver, registered with `token`. */
  subscribe(token: string, behaviour?: Behaviour, extra?: Record<string, unknown>): Promise<Registered>
  /** An agent's reply in the seeded customer's conversation. */
  reply(text?: string): Promise<Thread>
  /** The seeded customer's message in its own conversation. */
  customerSays(text?: string): Promise<{ id: string }>
  /** A realtime connection of `token`'s subject (a tab), closed after the test. */
  tab(token: string): Promise<TestSocket>
  /** Resolves once the hub holds no open socket (a closed tab is closed on the service's side too). */
  noTabsOpen(): Promise<void>
  /** `emu.push.waitFor` with the run's deadline (widened on a loaded machine). */
  delivery(predicate: (d: PushDelivery) => boolean): Promise<PushDelivery>
}

export interface Registered {
  sub: BrowserSubscription
  record: PushSubscriptionRecord
}

export const CONVERSATION = SEEDED.myConversationId

export function usePushEmulator(push: Omit<PushOptions, 'agent'> = {}): PushFixture {
  let emu: Emulator | undefined
  let receiver: PushReceiver | undefined
  const sockets: TestSocket[] = []
  beforeAll(async () => {
    receiver = await startPushReceiver()
    emu = await startEmulator({
      plans: { maps: false, support: false, realtime: false },
      customerPlan: false,
      push: { ...push, agent: receiver.agent },
    })
  })
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close()
    emu?.reset()
  })
  afterAll(async () => {
    await emu?.close()
    await receiver?.close()
  })
  const e = () => emu ?? fail('emulator not started')
  const json = async <T>(res: Response, status: number): Promise<T> => {
    const text = await res.text()
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`)
    return JSON.parse(text) as T
  }
  const fixture: PushFixture = {
    emu: e,
    receiver: () => receiver ?? fail('receiver not started'),
    customer: () =>
      e().mintToken({
        subject: SEEDED.customerId,
        scope: [CUSTOMER_SCOPE],
        profile: { name: 'Ana', email: 'ana@example.com' },
      }),
    agent: (subject = SEEDED.agentId) => e().mintToken({ subject, scope: ['support', 'realtime'] }),
    async subscribe(token, behaviour = 201, extra = {}) {
      const sub = browserSubscription(fixture.receiver().endpoint(behaviour))
      const res = await call(e(), '/realtime/v1/push/subscriptions', {
        method: 'POST',
        token,
        json: { endpoint: sub.endpoint, keys: sub.keys, ...extra },
      })
      return { sub, record: await json<PushSubscriptionRecord>(res, 201) }
    },
    async reply(text = 'Your parcel left the depot.') {
      const res = await call(e(), `/support/v1/conversations/${CONVERSATION}/reply`, {
        method: 'POST',
        token: await fixture.agent(),
        json: { text },
      })
      return json<Thread>(res, 201)
    },
    async customerSays(text = 'Any news?') {
      const res = await call(e(), `/support/v1/me/conversations/${CONVERSATION}/messages`, {
        method: 'POST',
        token: await fixture.customer(),
        json: { text },
      })
      return json<{ id: string }>(res, 201)
    },
    async tab(token) {
      const { socket } = await TestSocket.connect(e(), token)
      sockets.push(socket)
      return socket
    },
    noTabsOpen: () => e().realtime.waitFor(() => e().realtime.stats.connections.open === 0, { timeoutMs: slack(5000) }),
    delivery: (predicate) => e().push.waitFor(predicate, { timeoutMs: slack(5000) }),
  }
  return fixture
}

function fail(message: string): never {
  throw new Error(message)
}
