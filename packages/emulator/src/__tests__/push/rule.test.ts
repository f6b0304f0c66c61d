// The rule (docs/push.md): a message is pushed only when the subject had no open realtime
// connection of the app from the message until the grace after it. Open: nothing (skipped-open);
// after the last tab closed: exactly one push per message, once the grace is over; a reconnect
// (a reload) inside the grace: none (cancelled). For a customer and an agent alike.
import { describe, expect, it } from 'vitest'
import { during, slack } from '../../../../../test/utils/wait.js'
import { call } from '../helpers.js'
import { decryptPush } from '../../../../../test/utils/push-receiver.js'
import { CONVERSATION, usePushEmulator } from './push-fixture.js'

// Long enough that a test opens a tab inside it on a loaded machine; the waits end on events.
const GRACE_MS = slack(250)
const f = usePushEmulator({ graceMs: GRACE_MS })
const deliveriesOf = (messageId: string) =>
  f
    .emu()
    .push.deliveries()
    .filter((d) => d.messageId === messageId)

describe('push only when no tab is open', () => {
  it('sends nothing while the customer has a connection open', async () => {
    const token = await f.customer()
    const { sub } = await f.subscribe(token)
    await f.tab(token)
    const reply = await f.reply()
    const skipped = await f.delivery((d) => d.messageId === reply.id)
    expect(skipped.status).toBe('skipped-open')
    // Past the grace: still nothing sent, nothing pending.
    await during(GRACE_MS * 2)
    expect(f.receiver().at(sub.endpoint)).toEqual([])
    expect(deliveriesOf(reply.id).map((d) => d.status)).toEqual(['skipped-open'])
  })

  it('after the last tab closes, sends exactly one push per message once the grace is over', async () => {
    const token = await f.customer()
    const { sub } = await f.subscribe(token)
    const [one, two] = [await f.tab(token), await f.tab(token)]
    one.close()
    await f.emu().realtime.waitFor(() => f.emu().realtime.stats.connections.open === 1)
    const whileOneOpen = await f.reply('While a tab was open')
    expect((await f.delivery((d) => d.messageId === whileOneOpen.id)).status).toBe('skipped-open')
    two.close()
    await f.noTabsOpen()
    const first = await f.reply('First')
    const second = await f.reply('Second')
    await f.receiver().waitFor(() => f.receiver().at(sub.endpoint).length === 2, 'two pushes')
    const ids = f
      .receiver()
      .at(sub.endpoint)
      .map((h) => (decryptPush(h.body, sub) as { messageId: string }).messageId)
    expect(ids).toEqual([first.id, second.id])
    // Never a second one for the same message.
    await during(GRACE_MS * 2)
    expect(f.receiver().at(sub.endpoint)).toHaveLength(2)
    expect(deliveriesOf(first.id).map((d) => d.status)).toEqual(['sent'])
    expect(deliveriesOf(whileOneOpen.id).map((d) => d.status)).toEqual(['skipped-open'])
  })

  it('a reconnect (a reload) inside the grace sends none', async () => {
    const token = await f.customer()
    const { sub } = await f.subscribe(token)
    const reply = await f.reply()
    expect(deliveriesOf(reply.id).map((d) => d.status)).toEqual(['pending'])
    await f.tab(token)
    expect((await f.delivery((d) => d.messageId === reply.id && d.status !== 'pending')).status).toBe('cancelled')
    await during(GRACE_MS * 2)
    expect(f.receiver().at(sub.endpoint)).toEqual([])
  })

  it('never pushes a note, and another subject’s tab does not hold a customer’s push', async () => {
    const { sub } = await f.subscribe(await f.customer())
    const agent = await f.agent()
    await f.tab(agent)
    const note = await call(f.emu(), `/support/v1/conversations/${CONVERSATION}/notes`, {
      method: 'POST',
      token: agent,
      json: { text: 'Internal only' },
    })
    expect(note.status).toBe(201)
    const reply = await f.reply()
    await f.receiver().waitFor(() => f.receiver().at(sub.endpoint).length === 1, 'the reply’s push')
    expect((decryptPush(f.receiver().at(sub.endpoint)[0]!.body, sub) as { messageId: string }).messageId).toBe(reply.id)
    expect(
      f
        .emu()
        .push.deliveries()
        .map((d) => d.messageId),
    ).toEqual([reply.id])
  })

  it(
    'pushes a customer’s message to the agents of its mailbox only, each by its own tabs',
    async () => {
      const reader = await f.agent()
      const conversation = (await (
        await call(f.emu(), `/support/v1/conversations/${CONVERSATION}`, { token: reader })
      ).json()) as { mailboxId: string }
      const [ours, all, other, busy] = await Promise.all(
        ['agt_ours', 'agt_all', 'agt_other', 'agt_busy'].map((s) => f.agent(s)),
      )
      const mine = await f.subscribe(ours!, 201, { mailboxIds: [conversation.mailboxId] })
      const every = await f.subscribe(all!, 201, { mailboxIds: null })
      const elsewhere = await f.subscribe(other!, 201, { mailboxIds: ['mbx_elsewhere'] })
      const open = await f.subscribe(busy!, 201)
      await f.tab(busy!)
      const message = await f.customerSays('Is anyone there?')
      const receiver = f.receiver()
      await receiver.waitFor(
        () => receiver.at(mine.sub.endpoint).length === 1 && receiver.at(every.sub.endpoint).length === 1,
        'the two agents’ pushes',
      )
      const payload = decryptPush(receiver.at(mine.sub.endpoint)[0]!.body, mine.sub)
      expect(payload).toMatchObject({
        messageId: message.id,
        conversationId: CONVERSATION,
        channel: 'support:conversations',
        title: 'Ana',
        body: 'Is anyone there?',
      })
      expect(deliveriesOf(message.id).find((d) => d.subject === 'agt_busy')?.status).toBe('skipped-open')
      await during(GRACE_MS * 2)
      expect(receiver.at(elsewhere.sub.endpoint)).toEqual([])
      expect(receiver.at(open.sub.endpoint)).toEqual([])
      expect(
        deliveriesOf(message.id)
          .map((d) => d.subject)
          .sort(),
      ).toEqual(['agt_all', 'agt_busy', 'agt_ours'])
    },
    slack(10_000),
  )
})
