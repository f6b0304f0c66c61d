// A renew while a push is in flight to the old endpoint: the late 410 of the old endpoint is about
// the old endpoint, so the renewed subscription (same id, new endpoint) stays; pushes queued
// before the renew still go where they were queued for, never through the old queue to the new one.
import type { PushSubscriptionRecord } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { browserSubscription } from '../../../../../test/utils/push-receiver.js'
import { slack } from '../../../../../test/utils/wait.js'
import { call } from '../helpers.js'
import { usePushEmulator } from './push-fixture.js'

// A held request is held for the whole test: the sender's own timeout must not end it first.
const f = usePushEmulator({ graceMs: 0, timeoutMs: slack(30_000) })
const PATH = '/realtime/v1/push/subscriptions'

const list = async (token: string) =>
  ((await (await call(f.emu(), PATH, { token })).json()) as { data: PushSubscriptionRecord[] }).data

describe('a renew while the old endpoint holds a push', () => {
  it('keeps the renewed subscription when the old endpoint answers 410 late', async () => {
    const token = await f.customer()
    const receiver = f.receiver()
    const old = await f.subscribe(token, 'hang')
    const first = await f.reply('First')
    await receiver.waitFor(() => receiver.at(old.sub.endpoint).length === 1, 'the old endpoint holding the push')
    // Queued behind the held one, for the old endpoint.
    const second = await f.reply('Second')
    await f.delivery((d) => d.messageId === second.id && d.status === 'pending')
    const next = browserSubscription(receiver.endpoint(201))
    const renewed = await call(f.emu(), `${PATH}/renew`, {
      method: 'POST',
      json: {
        oldEndpoint: old.sub.endpoint,
        auth: old.sub.keys.auth,
        subscription: { endpoint: next.endpoint, keys: next.keys },
      },
    })
    expect(renewed.status).toBe(200)
    receiver.release(410)
    const gone = await f.delivery((d) => d.messageId === first.id && d.status !== 'pending')
    expect(gone).toMatchObject({ status: 'gone', httpStatus: 410, endpoint: old.sub.endpoint })
    // The queued push went to the endpoint it was queued for; it too is held, then answered 410.
    await receiver.waitFor(() => receiver.at(old.sub.endpoint).length === 2, 'the queued push at the old endpoint')
    receiver.release(410)
    await f.delivery((d) => d.messageId === second.id && d.status === 'gone')
    expect(receiver.at(next.endpoint)).toHaveLength(0)
    expect((await list(token)).map((s) => [s.id, s.endpoint])).toEqual([[old.record.id, next.endpoint]])
    // And the next message reaches the new endpoint.
    await f.reply('Third')
    await receiver.waitFor(() => receiver.at(next.endpoint).length === 1, 'a push at the new endpoint')
  })
})
