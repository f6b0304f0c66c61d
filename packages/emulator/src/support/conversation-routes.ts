// REST routes of conversations and their threads, and the webhooks their writes send. Inputs
// already matched the contract (spec/rest-inputs.ts); the rules here are the ones it cannot state.
import type { ConversationCreate, ConversationStatus, ConversationUpdate, ReplyCreate } from '@tandem/contract'
import { HttpError } from '../http-errors.js'
import type { RouteContext, RouteHandler, RouteResult } from '../resource-routes.js'
import { parseLimit } from '../resource-store.js'
import type { Route } from '../router.js'
import type { UploadRegistry } from '../uploads/registry.js'
import type { WebhookModule } from '../webhooks/module.js'
import type { ConversationFilter, ConversationStore, UpdateInput } from './conversation-store.js'
import { offsetPage } from './cursor.js'
import type { CustomerFeed } from './customer-feed.js'
import { fail, notFound } from '../validate.js'
import { normalTags, optionalParam } from './params.js'
import type { Conversation, ThreadAuthor } from './types.js'

export function conversationRoutes(
  store: ConversationStore,
  webhooks: WebhookModule,
  feed: CustomerFeed,
  uploads: UploadRegistry,
): Route<RouteHandler>[] {
  const find = (id = ''): Conversation => store.get(id) ?? fail(notFound('conversation', id))
  const notify = (ctx: RouteContext, type: string, data: unknown) =>
    webhooks.dispatch(ctx.principal.app, { type, data })

  /** null unassigns; an id must be one of the agents (GET /v1/agents). */
  const assignee = (value: string | null | undefined): string | null | undefined => {
    if (value === undefined || value === null) return value
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
      const since = optionalParam(query, 'modifiedSince') // an RFC 3339 date-time: the contract's format
      const filter: ConversationFilter = {
        mailboxId: optionalParam(query, 'mailboxId'),
        status: optionalParam(query, 'status') as ConversationStatus | undefined,
        tag: optionalParam(query, 'tag')?.trim().toLowerCase(),
        words: optionalParam(query, 'query')?.toLowerCase().split(/\s+/).filter(Boolean),
        modifiedSince: since === undefined ? undefined : Date.parse(since),
      }
      return { status: 200, body: store.list(filter, parseLimit(query.get('limit')), query.get('cursor') || null) }
    },
  }

  const create: RouteHandler = {
    write: true,
    run: (ctx) => {
      const b = ctx.body as ConversationCreate
      const mailboxId = b.mailboxId
      const input = {
        mailboxId,
        subject: b.subject,
        customer: { id: b.customer.id ?? null, email: b.customer.email.toLowerCase(), name: b.customer.name ?? null },
        text: b.text,
        tags: normalTags(b.tags ?? []),
        status: b.status ?? 'active',
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
      // A conversation an agent opens for a known customer shows up in that customer's list.
      feed.conversation(ctx.principal.app, conversation.id)
      feed.message(ctx.principal.app, thread)
      return { status: 201, body: conversation, applied: true }
    },
  }

  const update: RouteHandler = {
    write: true,
    run: (ctx) => {
      const id = ctx.params.id ?? ''
      find(id)
      const b = ctx.body as ConversationUpdate
      const patch: UpdateInput = {
        ...(b.status !== undefined ? { status: b.status } : {}),
        ...(b.assigneeId !== undefined ? { assigneeId: assignee(b.assigneeId) } : {}),
        ...(b.tags !== undefined ? { tags: normalTags(b.tags) } : {}),
      }
      const { conversation, changes } = store.update(id, patch) ?? fail(notFound('conversation', id))
      const applied = Object.keys(changes).length > 0
      if (applied) {
        ctx.publishChange?.('conversations', { event: 'updated', item: conversation })
        notify(ctx, 'conversation.updated', { conversation, changes })
      }
      // The customer sees only the status of what a PATCH changes.
      if (changes.status) feed.conversation(ctx.principal.app, id)
      return { status: 200, body: conversation, applied }
    },
  }

  /** Replies and notes are written by the caller (the token's subject), as an agent. */
  const addThread = (type: 'reply' | 'note'): RouteHandler => ({
    write: true,
    run: (ctx): RouteResult => {
      const id = ctx.params.id ?? ''
      find(id)
      // A note has no `status` (NoteCreate is closed): only a reply may change it.
      const b = ctx.body as ReplyCreate
      const body = b.text
      // All the files or none: every id checked before anything is written.
      const claimed = uploads.claim(ctx.principal, b.attachments)
      const next = type === 'reply' ? b.status : undefined
      const { subject } = ctx.principal
      const agent = store.data.agents.find((a) => a.id === subject)
      const author: ThreadAuthor = {
        type: 'agent',
        id: subject,
        name: agent?.name ?? subject,
        email: agent?.email ?? null,
      }
      const { thread, conversation, changes } =
        store.addThread(id, type, body, author, next, (threadId) => uploads.attach(claimed, threadId)) ??
        fail(notFound('conversation', id))
      // The conversation changed too (threadCount, preview, modifiedAt, maybe status).
      ctx.publishChange?.('conversations', { event: 'updated', item: conversation })
      // Each carries links minted for it: the webhook under the emulator's own URL, the answer its request's.
      notify(ctx, 'thread.created', { conversation, thread: uploads.fresh(thread) })
      if (changes.status) notify(ctx, 'conversation.updated', { conversation, changes })
      // A reply reaches the customer (message, then the conversation with its unread count); a note never does.
      if (type === 'reply') {
        feed.message(ctx.principal.app, thread)
        feed.conversation(ctx.principal.app, id)
      }
      return { status: 201, body: uploads.fresh(thread, ctx.origin), applied: true }
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
        run: ({ params, query, origin }) => {
          const threads = store.threads(params.id ?? '') ?? fail(notFound('conversation', params.id ?? ''))
          const page = offsetPage(threads, parseLimit(query.get('limit')), query.get('cursor') || null, 'thr')
          // Each answer mints its own download URLs.
          return { status: 200, body: { ...page, data: page.data.map((t) => uploads.fresh(t, origin)) } }
        },
      },
    },
    { method: 'POST', pattern: '/v1/conversations/:id/reply', handler: addThread('reply') },
    { method: 'POST', pattern: '/v1/conversations/:id/notes', handler: addThread('note') },
  ]
}
