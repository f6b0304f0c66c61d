// What a push service can hold of the sender, at most: one attempt lasts `timeoutMs` in all (an
// endpoint trickling its answer a byte at a time does not keep it going), and at most 4 kB of an
// answer is read. (How many may wait for one endpoint: sender.test.ts.)
import { describe, expect, it } from 'vitest'
import { usePushEmulator } from './push-fixture.js'

// Short against the trickle's 20 ms a byte: a socket idle timeout of this length never fires on it.
const f = usePushEmulator({ graceMs: 0, timeoutMs: 300 })

describe('the bounds of one endpoint', () => {
  it('ends an attempt at the deadline however the answer trickles, and moves to the next push', async () => {
    const token = await f.customer()
    const { sub, record } = await f.subscribe(token, 'trickle')
    const first = await f.reply('First')
    const second = await f.reply('Second')
    const done = await f.delivery((d) => d.messageId === first.id && d.status !== 'pending')
    // The push service said 201 before trickling: that is its answer.
    expect(done).toMatchObject({ subscriptionId: record.id, status: 'sent', httpStatus: 201 })
    const receiver = f.receiver()
    await receiver.waitFor(() => receiver.at(sub.endpoint).length === 2, 'the second push, after the deadline')
    await receiver.waitFor(() => receiver.at(sub.endpoint)[0]?.aborted === true, 'the first connection dropped')
    await f.delivery((d) => d.messageId === second.id && d.status === 'sent')
  })

  it('reads at most a few kB of an answer: an endless body ends the attempt, not the deadline', async () => {
    const token = await f.customer()
    const { sub } = await f.subscribe(token, 'flood')
    const reply = await f.reply()
    const receiver = f.receiver()
    await receiver.waitFor(() => receiver.at(sub.endpoint)[0]?.aborted === true, 'the sender dropping the flood')
    const done = await f.delivery((d) => d.messageId === reply.id && d.status !== 'pending')
    expect(done).toMatchObject({ status: 'sent', httpStatus: 201 })
  })
})
