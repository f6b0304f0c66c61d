// Hostile push services: an endpoint answering 404 or 410 is removed (as real push services
// require); one that holds the request does not hold up the reply that caused it, nor the
// channel's message, nor other pushes. (One that never answers: timeout.test.ts.)
import { customerChannelName } from '@tandem/contract'
import { SEEDED } from '@tandem/contract/spec'
import { describe, expect, it } from 'vitest'
import { slack } from '../../../../../test/utils/wait.js'
import { call } from '../helpers.js'
import { usePushEmulator } from './push-fixture.js'

// A held request is held for the whole test: the sender's own timeout must not end it first.
const f = usePushEmulator({ graceMs: 0, timeoutMs: slack(30_000) })
const subscriptions = async (token: string) =>
  ((await (await call(f.emu(), '/realtime/v1/push/subscriptions', { token })).json()) as { data: { id: string }[] })
    .data

describe('hostile push services', () => {
  it.each([404, 410])('removes a subscription whose endpoint answers %i', async (status) => {
    const token = await f.customer()
    const kept = await f.subscribe(token)
    const gone = await f.subscribe(token, status)
    const reply = await f.reply()
    const delivery = await f.delivery((d) => d.subscriptionId === gone.record.id && d.status !== 'pending')
    expect(delivery).toMatchObject({ status: 'gone', httpStatus: status, messageId: reply.id })
    expect((await subscriptions(token)).map((s) => s.id)).toEqual([kept.record.id])
    // The next message goes to the one left only.
    await f.reply()
    await f.receiver().waitFor(() => f.receiver().at(kept.sub.endpoint).length === 2, 'the second push')
    expect(f.receiver().at(gone.sub.endpoint)).toHaveLength(1)
  })

  it('records a push service error as failed, and keeps the subscription', async () => {
    const token = await f.customer()
    const failing = await f.subscribe(token, 500)
    await f.reply()
    const delivery = await f.delivery((d) => d.status !== 'pending')
    expect(delivery).toMatchObject({ status: 'failed', httpStatus: 500, error: 'HTTP 500' })
    expect((await subscriptions(token)).map((s) => s.id)).toEqual([failing.record.id])
  })

  it('a push service that holds the request holds up neither the reply, the channel, nor other endpoints', async () => {
    const token = await f.customer()
    const slow = await f.subscribe(token, 'hang')
    const fine = await f.subscribe(token)
    const receiver = f.receiver()
    // An agent's tab on the customer's channel hears each reply as the service publishes it.
    const listener = await f.tab(await f.agent('agt_listener'))
    const channel = customerChannelName(SEEDED.customerId)
    await listener.request({ type: 'subscribe', channels: [{ channel }] })
    const first = await f.reply('First')
    await receiver.waitFor(() => receiver.at(slow.sub.endpoint).length === 1, 'the slow endpoint holding the push')
    // While that request is held open: the next reply is answered, published, and pushed elsewhere.
    const second = await f.reply('Second')
    const heard = await listener.take((m) => m.type === 'message' && (m.data as { id?: string }).id === second.id)
    expect(heard.channel).toBe(channel)
    await receiver.waitFor(() => receiver.at(fine.sub.endpoint).length === 2, 'both pushes on the other endpoint')
    expect(receiver.at(slow.sub.endpoint).map((h) => h.status)).toEqual([undefined])
    // The slow endpoint gets its pushes in order once it answers.
    receiver.release()
    await receiver.waitFor(() => receiver.at(slow.sub.endpoint).length === 2, 'the second push, after the first')
    receiver.release()
    const statuses = await f
      .emu()
      .push.waitFor((d) => d.subscriptionId === slow.record.id && d.messageId === second.id && d.status === 'sent')
    expect(statuses.status).toBe('sent')
    expect(
      f
        .emu()
        .push.deliveries()
        .find((d) => d.messageId === first.id && d.subscriptionId === slow.record.id)?.status,
    ).toBe('sent')
  })
})
