// The sender on its own, against the local receiver: at most QUEUE_LIMIT pushes wait for one
// endpoint (past it a push fails at once, holding nothing). (reset and close: stop.test.ts.)
import type { PushPayload } from '@tandem/contract'
import { SEEDED } from '@tandem/contract/spec'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPushSender, QUEUE_LIMIT, type PushSender, type SendResult } from '../../push/sender.js'
import { browserSubscription, startPushReceiver, type PushReceiver } from '../../../../../test/utils/push-receiver.js'
import { slack } from '../../../../../test/utils/wait.js'

let receiver: PushReceiver
let sender: PushSender
beforeAll(async () => {
  receiver = await startPushReceiver()
  sender = createPushSender({ agent: receiver.agent, timeoutMs: slack(30_000) })
})
afterAll(async () => {
  sender.reset()
  await receiver.close()
})

const payload = (n: number): PushPayload => ({
  v: 1,
  type: 'message',
  channel: 'support:conversations',
  messageId: `thr_${n}`,
  conversationId: SEEDED.myConversationId,
  title: 'Support',
  body: `Message ${n}`,
  url: null,
  sentAt: new Date().toISOString(),
})

describe('the push sender', () => {
  it(`lets at most ${QUEUE_LIMIT} pushes wait for one endpoint: the next fails at once`, async () => {
    const sub = browserSubscription(receiver.endpoint('hang'))
    const results: Promise<SendResult>[] = []
    // One in flight, QUEUE_LIMIT waiting, and one more.
    for (let i = 0; i < QUEUE_LIMIT + 2; i++) results.push(sender.send(sub, payload(i)))
    expect(await results.at(-1)).toEqual({
      status: 'failed',
      error: `${QUEUE_LIMIT} pushes already wait for this endpoint`,
    })
    // Another endpoint is not held up by it.
    const other = browserSubscription(receiver.endpoint(201))
    expect(await sender.send(other, payload(0))).toEqual({ status: 'sent', httpStatus: 201 })
    sender.reset()
    await Promise.all(results)
  })
})
