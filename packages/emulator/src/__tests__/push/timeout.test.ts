// A push service that accepts the request and never answers: the sender gives up after its
// `timeoutMs` (failed, the subscription kept), so a dead endpoint holds nothing forever.
import { describe, expect, it } from 'vitest'
import { call } from '../helpers.js'
import { usePushEmulator } from './push-fixture.js'

const f = usePushEmulator({ graceMs: 0, timeoutMs: 200 })

describe('a push service that never answers', () => {
  it('is given up on after the timeout: failed, and the subscription kept', async () => {
    const token = await f.customer()
    const { record } = await f.subscribe(token, 'hang')
    await f.reply()
    const delivery = await f.delivery((d) => d.subscriptionId === record.id && d.status !== 'pending')
    expect(delivery.status).toBe('failed')
    expect(delivery.error).toMatch(/timeout/i)
    const list = (await (await call(f.emu(), '/realtime/v1/push/subscriptions', { token })).json()) as {
      data: { id: string }[]
    }
    expect(list.data.map((s) => s.id)).toEqual([record.id])
  })
})
