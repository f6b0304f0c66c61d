import { listPages, validateId, validateLimit, type PagePromise } from '../collection.js'
import { ValidationError } from '../errors.js'
import type { Http } from '../http.js'
import type { CallOptions, HttpMethod, Query, WriteOptions } from '../types.js'
import { arr, obj, oneOf, opt, str } from '../validate.js'

// Typed client of the support service, attached as `client.support` (docs/services/support.md).

export type ConversationStatus = 'active' | 'pending' | 'closed'

export interface Mailbox {
  id: string
  name: string
  slug: string
  email: string
  createdAt: string
  updatedAt: string
}
export interface Agent {
  id: string
  name: string
  email: string
}
export interface Customer {
  email: string
  name: string | null
}

export interface Conversation {
  id: string
  number: number
  mailboxId: string
  subject: string
  /** The start of the latest customer message or reply. */
  preview: string
  status: ConversationStatus
  customer: Customer
  assigneeId: string | null
  tags: string[]
  threadCount: number
  createdAt: string
  modifiedAt: string
  closedAt: string | null
}

export interface Thread {
  id: string
  conversationId: string
  /** `reply` and `note` are written by agents (the caller, for ones you add); notes are internal. */
  type: 'customer' | 'reply' | 'note'
  author: { type: 'customer' | 'agent'; id: string | null; name: string | null; email: string | null }
  text: string
  createdAt: string
}

export interface DocCollection {
  id: string
  name: string
  slug: string
  description: string
  articleCount: number
}

export interface Article {
  id: string
  collectionId: string
  title: string
  slug: string
  keywords: string[]
  text: string
  createdAt: string
  updatedAt: string
}

/** Lists and search give articles without `text`, with a short `excerpt`. */
export type ArticleSummary = Omit<Article, 'text'> & { excerpt: string }

/** Page size (1–100, default 20) and the `nextCursor` of the previous page. */
export interface SupportPageParams {
  limit?: number
  cursor?: string
}

export interface ConversationListParams extends SupportPageParams {
  mailboxId?: string
  status?: ConversationStatus
  tag?: string
  /** Words that must all occur in the subject, preview or customer (case-insensitive). */
  query?: string
  /** Only conversations modified at or after this instant. */
  modifiedSince?: string | Date
}

export interface ConversationCreate {
  mailboxId: string
  subject: string
  customer: { email: string; name?: string }
  /** The customer's first message. */
  text: string
  tags?: string[]
  status?: ConversationStatus
  assigneeId?: string | null
}

export interface ConversationUpdate {
  status?: ConversationStatus
  /** null unassigns. */
  assigneeId?: string | null
  tags?: string[]
}

export interface ArticleListParams extends SupportPageParams {
  collectionId?: string
}

export interface ArticleSearchParams extends ArticleListParams {
  query: string
}

export interface SupportService {
  mailboxes: {
    list(params?: SupportPageParams, options?: CallOptions): PagePromise<Mailbox>
    get(id: string, options?: CallOptions): Promise<Mailbox>
  }
  agents: { list(params?: SupportPageParams, options?: CallOptions): PagePromise<Agent> }
  conversations: {
    list(params?: ConversationListParams, options?: CallOptions): PagePromise<Conversation>
    get(id: string, options?: CallOptions): Promise<Conversation>
    create(input: ConversationCreate, options?: WriteOptions): Promise<Conversation>
    /** Closed conversations reopen only through `reply` (422 `invalid_transition`). */
    update(id: string, patch: ConversationUpdate, options?: WriteOptions): Promise<Conversation>
    threads(id: string, params?: SupportPageParams, options?: CallOptions): PagePromise<Thread>
    /** Replying to a closed conversation reopens it (`active`), unless `status` says otherwise. */
    reply(id: string, input: { text: string; status?: ConversationStatus }, options?: WriteOptions): Promise<Thread>
    /** An internal note; never changes the status. */
    note(id: string, input: { text: string }, options?: WriteOptions): Promise<Thread>
  }
  docs: {
    /** By relevance: every word must occur in the title, keywords or text. */
    search(params: ArticleSearchParams, options?: CallOptions): PagePromise<ArticleSummary>
    /** By title. */
    list(params?: ArticleListParams, options?: CallOptions): PagePromise<ArticleSummary>
    get(id: string, options?: CallOptions): Promise<Article>
    collections(params?: SupportPageParams, options?: CallOptions): PagePromise<DocCollection>
  }
}

const STATUSES: ConversationStatus[] = ['active', 'pending', 'closed']
const status = (v: unknown) => opt(v, (s) => oneOf(s, 'status', STATUSES))
const optId = (v: unknown, field: string) => opt(v, (s) => str(s, field, 200))
const tags = (v: unknown) => opt(v, (t) => arr(t, 'tags', 20, (x, f) => str(x, f, 50)))
/** Reply, note and create all carry the message as `text`. */
const text = (input: unknown) => str(obj(input, 'input').text, 'text', 50_000)
const assignee = (v: unknown) => v === null || optId(v, 'assigneeId')
const inCollection = (p: { collectionId?: string }) => ({ collectionId: optId(p.collectionId, 'collectionId') })

function isoDate(v: unknown): string {
  const d = v instanceof Date ? v : new Date(typeof v == 'string' ? v : NaN)
  if (isNaN(+d)) throw new ValidationError('modifiedSince', 'must be an ISO date or a Date')
  return d.toISOString()
}

export function createSupportService(http: Http): SupportService {
  // Every method checks its input inside an async function: bad input rejects and sends nothing.
  const send = <T>(method: HttpMethod, path: string, body?: unknown, options?: CallOptions) =>
    http<T>({ ...options, service: 'support', method, path: `/v1/${path}`, body })
  const get =
    <T>(base: string) =>
    async (id: string, options?: CallOptions) =>
      send<T>('GET', `${base}/${validateId(id)}`, undefined, options)
  const at = (id: string, sub = '') => `conversations/${validateId(id)}${sub}`

  /** One builder for every list: the query is checked before the first request and re-sent with each cursor. */
  const pageOf =
    <T, P extends SupportPageParams = SupportPageParams>(
      path: () => string,
      query: (params: P) => Query = () => ({}),
    ) =>
    (given?: P, options?: CallOptions): PagePromise<T> =>
      listPages<T>(http, 'support', options, () => {
        const p = `/v1/${path()}`
        // `null` (or anything else that is not an object) is refused like any bad input, inside the promise.
        const params = obj(given ?? {}, 'params') as P
        const q = { ...query(params), limit: params.limit }
        validateLimit(params.limit)
        return [p, { ...q, cursor: opt(params.cursor, (c) => str(c, 'cursor')) }]
      })

  return {
    mailboxes: { list: pageOf(() => 'mailboxes'), get: get('mailboxes') },
    agents: { list: pageOf(() => 'agents') },
    conversations: {
      list: pageOf<Conversation, ConversationListParams>(
        () => 'conversations',
        (p) => ({
          mailboxId: optId(p.mailboxId, 'mailboxId'),
          status: status(p.status),
          tag: opt(p.tag, (t) => str(t, 'tag', 50)),
          query: opt(p.query, (t) => str(t, 'query', 200)),
          modifiedSince: opt(p.modifiedSince, isoDate),
        }),
      ),
      get: get('conversations'),
      async create(input, options) {
        const c = obj(obj(input, 'input').customer, 'customer')
        str(input.mailboxId, 'mailboxId', 200)
        str(input.subject, 'subject', 255)
        if (!/^\S+@\S+\.\S+$/.test(str(c.email, 'customer.email', 254)))
          throw new ValidationError('customer.email', 'must be an email address')
        opt(c.name, (n) => str(n, 'customer.name', 200))
        text(input)
        tags(input.tags)
        status(input.status)
        assignee(input.assigneeId)
        return send('POST', 'conversations', input, options)
      },
      async update(id, patch, options) {
        const path = at(id)
        status(obj(patch, 'patch').status)
        assignee(patch.assigneeId)
        tags(patch.tags)
        return send('PATCH', path, patch, options)
      },
      threads: (id, params, options) => pageOf<Thread>(() => at(id, '/threads'))(params, options),
      async reply(id, input, options) {
        const path = at(id, '/reply')
        text(input)
        status(input.status)
        return send('POST', path, input, options)
      },
      note: async (id, input, options) => send('POST', at(id, '/notes'), (text(input), input), options),
    },
    docs: {
      search: pageOf<ArticleSummary, ArticleSearchParams>(
        () => 'docs/articles',
        (p) => ({ ...inCollection(p), query: str(p.query, 'query', 200) }),
      ),
      list: pageOf<ArticleSummary, ArticleListParams>(() => 'docs/articles', inCollection),
      get: get('docs/articles'),
      collections: pageOf(() => 'docs/collections'),
    },
  }
}
