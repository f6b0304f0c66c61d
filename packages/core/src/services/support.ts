import type { Client, ServiceClient } from '../base-client.js'
import { createCollection, listPages, validateId, validateLimit, type PagePromise } from '../collection.js'
import { ValidationError } from '../errors.js'
import type { Http } from '../http.js'
import {
  AGENT_FIELDS,
  ARTICLE_FIELDS,
  ARTICLE_SUMMARY_FIELDS,
  CONVERSATION_FIELDS,
  CONVERSATION_STATUSES,
  DOC_COLLECTION_FIELDS,
  MAILBOX_FIELDS,
  RESOURCE_FIELDS,
  THREAD_FIELDS,
  MAX_EMAIL,
  MAX_ID,
  MAX_PERSON_NAME,
  MAX_QUERY,
  MAX_SUBJECT,
  MAX_TAG,
  MAX_TAGS,
  MAX_TEXT,
  type Agent,
  type Article,
  type ArticleListQuery,
  type ArticleSummary,
  type Conversation,
  type ConversationCreate,
  type ConversationListQuery,
  type ConversationStatus,
  type ConversationUpdate,
  type Customer,
  type DocCollection,
  type Mailbox,
  type NoteCreate,
  type ReplyCreate,
  type Thread,
} from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import type { CallOptions, HttpMethod, Query, WriteOptions } from '../types.js'
import { requireArray, requireObject, requireOneOf, optional, requireString } from '../validate.js'

// Typed client of the support service, attached as `client.support` (docs/services/support.md).

export type {
  Agent,
  Article,
  ArticleSummary,
  Conversation,
  ConversationCreate,
  ConversationStatus,
  ConversationUpdate,
  Customer,
  DocCollection,
  Mailbox,
  Thread,
}

/**
 * What a reply or a note takes: the contract's body, and `files` to upload first (`RequestOptions.files`):
 * `text` may be blank only when there are files.
 */
export type ReplyInput = ReplyCreate & { files?: readonly Blob[] }
export type NoteInput = NoteCreate & { files?: readonly Blob[] }

/** Page size (1–100, default 20) and the `nextCursor` of the previous page. */
export interface SupportPageParams {
  limit?: number
  cursor?: string
}

/** The contract's filters; `modifiedSince` also takes a `Date`. */
export type ConversationListParams = Omit<ConversationListQuery, 'modifiedSince'> & {
  /** Only conversations modified at or after this instant. */
  modifiedSince?: string | Date
}

export type ArticleListParams = Omit<ArticleListQuery, 'query'>

export type ArticleSearchParams = ArticleListParams & { query: string }

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
    reply(id: string, input: ReplyInput, options?: WriteOptions): Promise<Thread>
    /** An internal note; never changes the status. Its files never reach the customer. */
    note(id: string, input: NoteInput, options?: WriteOptions): Promise<Thread>
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

const status = (v: unknown) => optional(v, (s) => requireOneOf(s, 'status', CONVERSATION_STATUSES))
const optId = (v: unknown, field: string) => optional(v, (s) => requireString(s, field, MAX_ID))
const tags = (v: unknown) =>
  optional(v, (t) => requireArray(t, 'tags', MAX_TAGS, (x, f) => requireString(x, f, MAX_TAG)))
/** Reply, note and create all carry the message as `text`. */
const text = (input: unknown) => requireString(requireObject(input, 'input').text, 'text', MAX_TEXT)
/** A reply's or a note's text: blank only beside files (their own check is the client's, `files`). */
const textOrFiles = (input: unknown) => {
  const { text: t, files } = requireObject(input, 'input')
  return Array.isArray(files) && files.length > 0 && t === '' ? t : text(input)
}
const assignee = (v: unknown) => v === null || optId(v, 'assigneeId')
const inCollection = (p: { collectionId?: string }) => ({ collectionId: optId(p.collectionId, 'collectionId') })

function isoDate(v: unknown): string {
  const d = v instanceof Date ? v : new Date(typeof v == 'string' ? v : NaN)
  if (isNaN(+d))
    throw new ValidationError(
      'modifiedSince',
      DEV && process.env.NODE_ENV !== 'production' && 'must be an ISO date or a Date',
    )
  return d.toISOString()
}

export function createSupportService(http: Http): SupportService {
  // Every method checks its input inside an async function: bad input rejects and sends nothing.
  // Every answer is checked against its line of the contract (`shape`): else `bad_response`.
  const send = <T>(
    method: HttpMethod,
    path: string,
    shape: string,
    body?: unknown,
    options?: CallOptions,
    files?: readonly Blob[],
  ) => http<T>({ ...options, service: 'support', method, path: `/v1/${path}`, body, shape, files })
  /** A message's body without its files, which go as the request's `files` (uploaded first). */
  const message = <T>(path: string, input: ReplyInput | NoteInput, options?: WriteOptions) => {
    const { files, ...body } = input
    return send<T>('POST', path, THREAD_FIELDS, body, options, files)
  }
  const get =
    <T>(base: string, shape: string) =>
    async (id: string, options?: CallOptions) =>
      send<T>('GET', `${base}/${validateId(id)}`, shape, undefined, options)
  const at = (id: string, sub = '') => `conversations/${validateId(id)}${sub}`

  /** One builder for every list: the query is checked before the first request and re-sent with each cursor. */
  const pageOf =
    <T, P extends SupportPageParams = SupportPageParams>(
      path: () => string,
      item: string,
      query: (params: P) => Query = () => ({}),
    ) =>
    (given?: P, options?: CallOptions): PagePromise<T> =>
      listPages<T>(
        http,
        'support',
        options,
        () => {
          const p = `/v1/${path()}`
          // `null` (or anything else that is not an object) is refused like any bad input, inside the promise.
          const params = requireObject(given ?? {}, 'params') as P
          const q = { ...query(params), limit: params.limit }
          validateLimit(params.limit)
          return [p, { ...q, cursor: optional(params.cursor, (c) => requireString(c, 'cursor')) }]
        },
        item,
      )

  return {
    mailboxes: { list: pageOf(() => 'mailboxes', MAILBOX_FIELDS), get: get('mailboxes', MAILBOX_FIELDS) },
    agents: { list: pageOf(() => 'agents', AGENT_FIELDS) },
    conversations: {
      list: pageOf<Conversation, ConversationListParams>(
        () => 'conversations',
        CONVERSATION_FIELDS,
        (p) => ({
          mailboxId: optId(p.mailboxId, 'mailboxId'),
          status: status(p.status),
          tag: optional(p.tag, (t) => requireString(t, 'tag', MAX_TAG)),
          query: optional(p.query, (t) => requireString(t, 'query', MAX_QUERY)),
          modifiedSince: optional(p.modifiedSince, isoDate),
        }),
      ),
      get: get('conversations', CONVERSATION_FIELDS),
      async create(input, options) {
        const c = requireObject(requireObject(input, 'input').customer, 'customer')
        requireString(input.mailboxId, 'mailboxId', MAX_ID)
        requireString(input.subject, 'subject', MAX_SUBJECT)
        if (!/^\S+@\S+\.\S+$/.test(requireString(c.email, 'customer.email', MAX_EMAIL)))
          throw new ValidationError(
            'customer.email',
            DEV && process.env.NODE_ENV !== 'production' && 'must be an email address',
          )
        optional(c.name, (n) => requireString(n, 'customer.name', MAX_PERSON_NAME))
        text(input)
        tags(input.tags)
        status(input.status)
        assignee(input.assigneeId)
        return send('POST', 'conversations', CONVERSATION_FIELDS, input, options)
      },
      async update(id, patch, options) {
        const path = at(id)
        status(requireObject(patch, 'patch').status)
        assignee(patch.assigneeId)
        tags(patch.tags)
        return send('PATCH', path, CONVERSATION_FIELDS, patch, options)
      },
      threads: (id, params, options) => pageOf<Thread>(() => at(id, '/threads'), THREAD_FIELDS)(params, options),
      async reply(id, input, options) {
        const path = at(id, '/reply')
        textOrFiles(input)
        status(input.status)
        return message(path, input, options)
      },
      note: async (id, input, options) => message(at(id, '/notes'), (textOrFiles(input), input), options),
    },
    docs: {
      search: pageOf<ArticleSummary, ArticleSearchParams>(
        () => 'docs/articles',
        ARTICLE_SUMMARY_FIELDS,
        (p) => ({ ...inCollection(p), query: requireString(p.query, 'query', MAX_QUERY) }),
      ),
      list: pageOf<ArticleSummary, ArticleListParams>(() => 'docs/articles', ARTICLE_SUMMARY_FIELDS, inCollection),
      get: get('docs/articles', ARTICLE_FIELDS),
      collections: pageOf(() => 'docs/collections', DOC_COLLECTION_FIELDS),
    },
  }
}

/** The support service for a client, with its generic `resources` collection (`@tandem/core/support`). */
export function support(client: Client): ServiceClient & SupportService {
  return {
    resources: createCollection(client.request, 'support', 'resources', RESOURCE_FIELDS),
    ...createSupportService(client.request),
  }
}
