// The customer's REST routes, /support/v1/me/... (docs/services/support.md, "Customers"): only a
// customer token (`support:customer`), and only its own conversations. Another customer's
// conversation answers exactly as one that does not exist, so nothing tells them apart.
import {
  CUSTOMER_SCOPE,
  type CustomerConversationStart,
  type CustomerMessageCreate,
  type CustomerProfile,
  type CustomerTypingCreate,
} from '@tandem/contract'
import type { Principal } from '../auth.js'
import type { RouteContext, RouteHandler } from '../resource-routes.js'
import { parseLimit } from '../resource-store.js'
import type { Route } from '../router.js'
import { fail, notFound } from '../validate.js'
import type { UploadRegistry } from '../uploads/registry.js'
import type { WebhookModule } from '../webhooks/module.js'
import type { ConversationStore } from './conversation-store.js'
import { offsetPage } from './cursor.js'
import type { CustomerFeed } from './customer-feed.js'
import type { CustomerTyping } from './customer-typing.js'
import { toCustomerMessage, visible, type CustomerReads } from './customer-view.js'
import { DEFAULTS } from './defaults.js'
import type { Conversation, ThreadAuthor } from './types.js'

const customerOnly = (handler: Omit<RouteHandler, 'capability'>): RouteHandler => ({
  ...handler,
  capability: () => CUSTOMER_SCOPE,
})

/** The start of the text, on one line, as a subject. */
function subjectOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  const max = DEFAULTS.customerSubjectLength
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

export function customerRoutes(
  store: ConversationStore,
  reads: CustomerReads,
  feed: CustomerFeed,
  webhooks: WebhookModule,
  uploads: UploadRegistry,
  typing: CustomerTyping,
): Route<RouteHandler>[] {
  const notify = (ctx: RouteContext, type: string, data: unknown) =>
    webhooks.dispatch(ctx.principal.app, { type, data })

  /** The caller's conversation, or the same 404 as for one that does not exist. */
  const mine = (principal: Principal, id = ''): Conversation => {
    const conversation = store.get(id)
    if (!conversation || conversation.customer.id !== principal.subject) fail(notFound('conversation', id))
    return conversation
  }
  const threadsOf = (id: string) => store.threads(id) ?? []
  const viewOf = (id: string) =>
    reads.view(store.get(id) as Conversation, threadsOf(id), store.customerModifiedAt(id) as string)
  const conversationsOf = (subject: string) =>
    store.list({ customerId: subject }, Number.MAX_SAFE_INTEGER, null, 'customer').data

  const me = customerOnly({
    write: false,
    run: ({ principal }) => {
      const unreadCount = conversationsOf(principal.subject).reduce(
        (n, c) => n + reads.unread(c.id, threadsOf(c.id)),
        0,
      )
      const body: CustomerProfile = {
        id: principal.subject,
        name: principal.profile?.name ?? null,
        email: principal.profile?.email ?? null,
        unreadCount,
      }
      return { status: 200, body }
    },
  })

  const list = customerOnly({
    write: false,
    run: ({ principal, query }) => {
      // In the order of what the customer sees: a note never moves a conversation up its list.
      const page = store.list(
        { customerId: principal.subject },
        parseLimit(query.get('limit')),
        query.get('cursor') || null,
        'customer',
      )
      return { status: 200, body: { data: page.data.map((c) => viewOf(c.id)), nextCursor: page.nextCursor } }
    },
  })

  const start = customerOnly({
    write: true,
    run: (ctx) => {
      const { principal } = ctx
      const b = ctx.body as CustomerConversationStart
      const claimed = uploads.claim(principal, b.attachments)
      const { mailboxes } = store.data
      const mailbox = mailboxes.find((m) => m.slug === DEFAULTS.customerMailbox) ?? mailboxes[0]
      const { conversation: created, thread } = store.create({
        mailboxId: mailbox?.id ?? '',
        subject: b.subject ?? (subjectOf(b.text) || subjectOf(claimed.map((r) => r.name).join(', '))),
        customer: {
          id: principal.subject,
          email: principal.profile?.email?.toLowerCase() ?? null,
          name: principal.profile?.name ?? null,
        },
        text: b.text,
        tags: [],
        status: 'active',
        assigneeId: null,
        attach: (threadId) => uploads.attach(claimed, threadId),
      })
      // The customer has read what they wrote: agents' "Seen" starts there.
      const conversation = store.markCustomerRead(created.id) ?? created
      reads.markRead(conversation.id, threadsOf(conversation.id))
      // To agents it is any new conversation: the live collection and the webhooks say so.
      ctx.publishChange?.('conversations', { event: 'created', item: conversation })
      notify(ctx, 'conversation.created', { conversation })
      notify(ctx, 'thread.created', { conversation, thread: uploads.fresh(thread) })
      feed.conversation(principal.app, conversation.id)
      feed.message(principal.app, thread)
      return { status: 201, body: viewOf(conversation.id), applied: true }
    },
  })

  const send = customerOnly({
    write: true,
    run: (ctx) => {
      const { principal } = ctx
      const id = ctx.params.id ?? ''
      const c = mine(principal, id)
      const author: ThreadAuthor = {
        type: 'customer',
        id: principal.subject,
        name: principal.profile?.name ?? c.customer.name,
        email: principal.profile?.email?.toLowerCase() ?? c.customer.email,
      }
      const b = ctx.body as CustomerMessageCreate
      const claimed = uploads.claim(principal, b.attachments)
      const attach = (threadId: string) => uploads.attach(claimed, threadId)
      const {
        thread,
        conversation: added,
        changes,
      } = store.addThread(id, 'customer', b.text, author, undefined, attach) ?? fail(notFound('conversation', id))
      // Writing is reading everything before it: "Seen" moves to the customer's own message.
      const conversation = store.markCustomerRead(id) ?? added
      reads.markRead(id, threadsOf(id))
      ctx.publishChange?.('conversations', { event: 'updated', item: conversation })
      notify(ctx, 'thread.created', { conversation, thread: uploads.fresh(thread) })
      if (changes.status) notify(ctx, 'conversation.updated', { conversation, changes })
      // The customer's other tabs hear their own message too.
      feed.message(principal.app, thread)
      feed.conversation(principal.app, id)
      return { status: 201, body: toCustomerMessage(uploads.fresh(thread, ctx.origin)), applied: true }
    },
  })

  const read = customerOnly({
    write: true,
    run: ({ principal, params, publishChange }) => {
      const id = params.id ?? ''
      mine(principal, id)
      reads.markRead(id, threadsOf(id))
      // Agents see where the customer has read up to ("Seen"), live; the list order does not move.
      const seen = store.markCustomerRead(id)
      if (seen) publishChange?.('conversations', { event: 'updated', item: seen })
      feed.conversation(principal.app, id)
      return { status: 200, body: viewOf(id), applied: true }
    },
  })

  // Shown to agents on the presence channel (customer-typing.ts); nothing is stored.
  const typingRoute = customerOnly({
    write: true,
    run: ({ principal, params, body }) => {
      const c = mine(principal, params.id)
      const name = principal.profile?.name ?? c.customer.name
      typing.set(principal.app, principal.subject, name, c.id, (body as CustomerTypingCreate).typing)
      return { status: 204 }
    },
  })

  return [
    { method: 'GET', pattern: '/v1/me', handler: me },
    { method: 'GET', pattern: '/v1/me/conversations', handler: list },
    { method: 'POST', pattern: '/v1/me/conversations', handler: start },
    {
      method: 'GET',
      pattern: '/v1/me/conversations/:id',
      handler: customerOnly({
        write: false,
        run: ({ principal, params }) => ({ status: 200, body: viewOf(mine(principal, params.id).id) }),
      }),
    },
    {
      method: 'GET',
      pattern: '/v1/me/conversations/:id/messages',
      handler: customerOnly({
        write: false,
        run: ({ principal, params, query, origin }) => {
          const id = mine(principal, params.id).id
          const messages = visible(threadsOf(id)).map(toCustomerMessage)
          const page = offsetPage(messages, parseLimit(query.get('limit')), query.get('cursor') || null, 'msg')
          // Links for the page's messages only, minted for this answer.
          return { status: 200, body: { ...page, data: page.data.map((m) => uploads.fresh(m, origin)) } }
        },
      }),
    },
    { method: 'POST', pattern: '/v1/me/conversations/:id/messages', handler: send },
    { method: 'POST', pattern: '/v1/me/conversations/:id/read', handler: read },
    { method: 'POST', pattern: '/v1/me/conversations/:id/typing', handler: typingRoute },
  ]
}
