// reset() and close() stop the sender: the push in flight is aborted, and none of those waiting
// behind it is POSTed afterwards, even when the endpoint answers at last.
import { CUSTOMER_SCOPE } from '@tandem/contract'
import { SEEDED } from '@tandem/contract/spec'
import { describe, expect, it } from 'vitest'
import { startEmulator } from '../../start.js'
import { browserSubscription } from '../../../../../test/utils/push-receiver.js'
import { during, slack } from '../../../../../test/utils/wait.js'
import { call } from '../helpers.js'
import { CONVERSATION, usePushEmulator } from './push-fixture.js'

// A held request is held for the whole test: the sender's own timeout must not end it first.
const f = usePushEmulator({ graceMs: 0, timeoutMs: slack(30_000) })

describe('a stopped sender', () => {
  it('on reset(), aborts the push in flight and POSTs none of those waiting', async () => {
    const token = await f.customer()
    const { sub } = await f.subscribe(token, 'hang')
    for (const text of ['One', 'Two', 'Three']) await f.reply(text)
    const receiver = f.receiver()
    await receiver.waitFor(() => receiver.at(sub.endpoint).length === 1, 'the first push held')
    f.emu().reset()
    await receiver.waitFor(() => receiver.at(sub.endpoint)[0]?.aborted === true, 'the held push aborted')
    // The endpoint answering now (were the request still open) would let the next one go.
    receiver.release()
    await during(slack(100))
    expect(receiver.at(sub.endpoint)).toHaveLength(1)
  })

  it('on close(), the same', async () => {
    const receiver = f.receiver()
    const emu = await startEmulator({
      plans: { maps: false, support: false, realtime: false },
      customerPlan: false,
      push: { graceMs: 0, timeoutMs: slack(30_000), agent: receiver.agent },
    })
    let closed = false
    try {
      const customer = await emu.mintToken({ subject: SEEDED.customerId, scope: [CUSTOMER_SCOPE] })
      const agent = await emu.mintToken({ subject: SEEDED.agentId, scope: ['support', 'realtime'] })
      const sub = browserSubscription(receiver.endpoint('hang'))
      const json = { endpoint: sub.endpoint, keys: sub.keys }
      expect(
        (await call(emu, '/realtime/v1/push/subscriptions', { method: 'POST', token: customer, json })).status,
      ).toBe(201)
      for (const text of ['One', 'Two']) {
        const path = `/support/v1/conversations/${CONVERSATION}/reply`
        expect((await call(emu, path, { method: 'POST', token: agent, json: { text } })).status).toBe(201)
      }
      await receiver.waitFor(() => receiver.at(sub.endpoint).length === 1, 'the first push held')
      closed = true
      await emu.close()
      await receiver.waitFor(() => receiver.at(sub.endpoint)[0]?.aborted === true, 'the held push aborted')
      receiver.release()
      await during(slack(100))
      expect(receiver.at(sub.endpoint)).toHaveLength(1)
    } finally {
      if (!closed) await emu.close()
    }
  })
})
