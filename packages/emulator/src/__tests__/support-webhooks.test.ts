// The support module on its own, with a recording webhook module: which writes send which events.
import { describe, expect, it } from 'vitest'
import { HttpError } from '../http-errors.js'
import { Router } from '../router.js'
import type { RouteHandler } from '../resource-routes.js'
import { createSupportModule } from '../support/module.js'
import type { Conversation } from '../support/types.js'
import type { WebhookEvent, WebhookModule } from '../webhooks/module.js'
import { authed, useEmulator } from './helpers.js'
import { answer, startReceiver } from './webhooks-receiver.js'

const emu = useEmulator()

function setup() {
  const events: (WebhookEvent & { app: string })[] = []
  const webhooks = {
    dispatch: (app: string, e: WebhookEvent) => events.push({ app, ...e }),
    controls: {},
    reset() {},
    close() {},
  }
  const mod = createSupportModule({ seed: 3, webhooks: webhooks as unknown as WebhookModule })
  const router = new Router<RouteHandler>(mod.routes)
  const run = <T>(method: string, path: string, body?: Record<string, unknown>): T => {
    const match = router.match(method, path)
    if (match instanceof HttpError) throw match
    const principal = { app: 'app_test', via: 'token' as const, subject: 'user_9', scope: ['support'] }
    const ctx = {
      store: undefined as never,
      principal,
      requestId: 'req_1',
      require() {},
      params: match.params,
      query: new URLSearchParams(),
      body,
    }
    return match.route.handler.run(ctx).body as T
  }
  return { events, run, mod }
}

describe('support webhooks', () => {
  it('sends conversation.created, conversation.updated (with changes) and thread.created', () => {
    const { events, run } = setup()
    const [mailbox] = run<{ data: { id: string }[] }>('GET', '/v1/mailboxes').data
    const c = run<Conversation>('POST', '/v1/conversations', {
      mailboxId: mailbox?.id,
      subject: 'Hi',
      customer: { email: 'a@b.co' },
      text: 'Hello',
    })
    expect(events.map((e) => [e.app, e.type])).toEqual([
      ['app_test', 'conversation.created'],
      ['app_test', 'thread.created'],
    ])
    expect(events[0]?.data).toEqual({ conversation: c })

    events.length = 0
    run('PATCH', `/v1/conversations/${c.id}`, { status: 'closed', tags: ['x'] })
    run('PATCH', `/v1/conversations/${c.id}`, { status: 'closed', tags: ['x'] }) // no-op: no event
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'conversation.updated',
      data: {
        conversation: { id: c.id, status: 'closed' },
        changes: { status: { from: 'active', to: 'closed' }, tags: { from: [], to: ['x'] } },
      },
    })

    events.length = 0
    run('POST', `/v1/conversations/${c.id}/notes`, { text: 'psst' })
    run('POST', `/v1/conversations/${c.id}/reply`, { text: 'Back again' })
    expect(events.map((e) => e.type)).toEqual(['thread.created', 'thread.created', 'conversation.updated'])
    expect(events[1]).toMatchObject({ data: { thread: { type: 'reply', author: { id: 'user_9' } } } })
    expect(events[2]).toMatchObject({ data: { changes: { status: { from: 'closed', to: 'active' } } } })
  })

  it('refusals send nothing', () => {
    const { events, run } = setup()
    const [c] = run<{ data: Conversation[] }>('GET', '/v1/conversations').data
    const attempt = () => run('PATCH', `/v1/conversations/${c?.id ?? ''}`, { tags: ['x'], assigneeId: 'agt_nope' })
    expect(attempt).toThrow(expect.objectContaining({ status: 422, code: 'unknown_assignee' }))
    expect(events).toEqual([])
  })

  it('reset() restores the seeded data', () => {
    const { run, mod } = setup()
    const first = run<{ data: Conversation[] }>('GET', '/v1/conversations')
    run('PATCH', `/v1/conversations/${first.data[5]?.id ?? ''}`, { tags: ['changed'] })
    expect(run('GET', '/v1/conversations')).not.toEqual(first)
    mod.reset()
    expect(run('GET', '/v1/conversations')).toEqual(first)
  })
})

describe('support webhooks over HTTP', () => {
  it('a conversation created over REST reaches a registered endpoint', async () => {
    const receiver = await startReceiver(answer(200))
    try {
      emu().webhooks.register({ url: receiver.url, events: ['conversation.*', 'thread.*'] })
      const mailboxes = (await (await authed(emu(), '/support/v1/mailboxes')).json()) as { data: { id: string }[] }
      const res = await authed(emu(), '/support/v1/conversations', {
        method: 'POST',
        json: { mailboxId: mailboxes.data[0]?.id, subject: 'Hello', customer: { email: 'a@b.co' }, text: 'Hi there' },
      })
      const created = (await res.json()) as Conversation
      await receiver.waitUntil(() => receiver.hits.length >= 2)
      const payloads = receiver.hits.map(
        (h) => JSON.parse(h.body) as { type: string; appId: string; data: { conversation: Conversation } },
      )
      expect(payloads.map((p) => p.type).sort()).toEqual(['conversation.created', 'thread.created'])
      expect(payloads[0]).toMatchObject({ appId: 'app_dev', data: { conversation: { id: created.id } } })
    } finally {
      await receiver.close()
    }
  })
})
