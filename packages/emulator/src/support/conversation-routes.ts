// REST routes of conversations and their threads, and the webhooks their writes send.
import { HttpError } from '../http-errors.js'
import type { RouteContext, RouteHandler, RouteResult } from '../resource-routes.js'
import { parseLimit } from '../resource-store.js'
import type { Route } from '../router.js'
import type { WebhookModule } from '../webhooks/module.js'
import type { ConversationFilter, ConversationStore, UpdateInput } from './conversation-store.js'
import { offsetPage } from './cursor.js'
import { DEFAULTS } from './defaults.js'
import { fail, invalid, notFound, requireBody, requireObject, requireText, textParam } from '../validate.js'
import { email, isoParam, status, tags } from './params.js'
import type { Conversation, ThreadAuthor } from './types.js'

export function conversationRoutes(store: ConversationStore, webhooks: WebhookModule): Route<RouteHandler>[] {
  const find = (id = ''): Conversation => store.get(id) ?? fail(notFound('conversation', id))
  const notify = (ctx: RouteContext, type: string, data: unknown) =>
    webhooks.dispatch(ctx.principal.app, { type, data })

  /** null unassigns; an id must be one of the agents (GET /v1/agents). */
  const assignee = (value: unknown): string | null | undefined => {
    if (value === undefined || value === null) return value
    if (typeof value !== 'string') throw invalid('assigneeId', 'must be an agent id or null')
    if (!store.data.agents.some((a) => a.id === value)) {
      throw new HttpError(422, 'unknown_assignee', `No agent with id "${value.slice(0, 100)}".`, [
        { field: 'assigneeId', value: value.slice(0, 100) },
      ])
    }
    return value
  }

  const list: RouteHandler = {
    write: false,
    run: ({ query }) => {
      const q = textParam(query.get('query'), 'query', DEFAULTS.max.query)
      const s = textParam(query.get('status'), 'status', DEFAULTS.max.query)
      const filter: ConversationFilter = {
        mailboxId: textParam(query.get('mailboxId'), 'mailboxId', DEFAULTS.max.query),
        status: s === undefined ? undefined : status(s),
        tag: textParam(query.get('tag'), 'tag', DEFAULTS.max.query)?.trim().toLowerCase(),
        words: q?.toLowerCase().split(/\s+/).filter(Boolean),
        modifiedSince: isoParam(query.get('modifiedSince'), 'modifiedSince'),
      }
      return { status: 200, body: store.list(filter, parseLimit(query.get('limit')), query.get('cursor') || null) }
    },
  }

  const create: RouteHandler = {
    write: true,
    run: (ctx) => {
      const b = requireBody(ctx.body)
      const mailboxId = requireText(b.mailboxId, 'mailboxId', 200)
      const subject = requireText(b.subject, 'subject', DEFAULTS.max.subject)
      const c = requireObject(b.customer, 'customer')
      const customer = {
        email: email(c.email, 'customer.email'),
        name: c.name === undefined || c.name === null ? null : requireText(c.name, 'customer.name', DEFAULTS.max.name),
      }
      const input = {
        mailboxId,
        subject,
        customer,
        text: requireText(b.text, 'text', DEFAULTS.max.text),
        tags: b.tags === undefined ? [] : tags(b.tags),
        status: b.status === undefined ? ('active' as const) : status(b.status),
        assigneeId: assignee(b.assigneeId) ?? null,
      }
      if (!store.data.mailboxes.some((m) => m.id === mailboxId)) {
        throw new HttpError(422, 'unknown_mailbox', `No mailbox with id "${mailboxId.slice(0, 100)}".`, [
          { field: 'mailboxId' },
        ])
      }
      const { conversation, thread } = store.create(input)
      ctx.publishChange?.('conversations', { event: 'created', item: conversation })
      notify(ctx, 'conversation.created', { conversation })
      notify(ctx, 'thread.created', { conversation, thread })
      return { status: 201, body: conversation, applied: true }
    },
  }

  const update: RouteHandler = {
    write: true,
    run: (ctx) => {
      const id = ctx.params.id ?? ''
      find(id)
      const b = requireBody(ctx.body)
      const patch: UpdateInput = {
        ...(b.status !== undefined ? { status: status(b.status) } : {}),
        ...(b.assigneeId !== undefined ? { assigneeId: assignee(b.assigneeId) } : {}),
        ...(b.tags !== undefined ? { tags: tags(b.tags) } : {}),
      }
      const { conversation, changes } = store.update(id, patch) ?? fail(notFound('conversation', id))
      const applied = Object.keys(changes).length > 0
      if (applied) {
        ctx.publishChange?.('conversations', { event: 'updated', item: conversation })
        notify(ctx, 'conversation.updated', { conversation, changes })
      }
      return { status: 200, body: conversation, applied }
    },
  }

  /** Replies and notes are written by the caller (the token's subject), as an agent. */
  const addThread = (type: 'reply' | 'note'): RouteHandler => ({
    write: true,
    run: (ctx): RouteResult => {
      const id = ctx.params.id ?? ''
      find(id)
      const b = requireBody(ctx.body)
      const body = requireText(b.text, 'text', DEFAULTS.max.text)
      const next = type === 'reply' && b.status !== undefined ? status(b.status) : undefined
      if (type === 'note' && b.status !== undefined) throw invalid('status', 'notes never change the status')
      const { subject } = ctx.principal
      const agent = store.data.agents.find((a) => a.id === subject)
      const author: ThreadAuthor = {
        type: 'agent',
        id: subject,
        name: agent?.name ?? subject,
        email: agent?.email ?? null,
      }
      const { thread, conversation, changes } =
        store.addThread(id, type, body, author, next) ?? fail(notFound('conversation', id))
      // The conversation changed too (threadCount, preview, modifiedAt, maybe status).
      ctx.publishChange?.('conversations', { event: 'updated', item: conversation })
      notify(ctx, 'thread.created', { conversation, thread })
      if (changes.status) notify(ctx, 'conversation.updated', { conversation, changes })
      return { status: 201, body: thread, applied: true }
    },
  })

  return [
    { method: 'GET', pattern: '/v1/conversations', handler: list },
    { method: 'POST', pattern: '/v1/conversations', handler: create },
    {
      method: 'GET',
      pattern: '/v1/conversations/:id',
      handler: { write: false, run: ({ params }) => ({ status: 200, body: find(params.id) }) },
    },
    { method: 'PATCH', pattern: '/v1/conversations/:id', handler: update },
    {
      method: 'GET',
      pattern: '/v1/conversations/:id/threads',
      handler: {
        write: false,
        run: ({ params, query }) => {
          const threads = store.threads(params.id ?? '') ?? fail(notFound('conversation', params.id ?? ''))
          return {
            status: 200,
            body: offsetPage(threads, parseLimit(query.get('limit')), query.get('cursor') || null, 'thr'),
          }
        },
      },
    },
    { method: 'POST', pattern: '/v1/conversations/:id/reply', handler: addThread('reply') },
    { method: 'POST', pattern: '/v1/conversations/:id/notes', handler: addThread('note') },
  ]
}
