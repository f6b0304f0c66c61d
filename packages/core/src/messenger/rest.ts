import {
  ARTICLE_FIELDS,
  ARTICLE_SUMMARY_FIELDS,
  CUSTOMER_CONVERSATION_FIELDS,
  CUSTOMER_MESSAGE_FIELDS,
  CUSTOMER_PROFILE_FIELDS,
  MAX_QUERY,
  MAX_SUBJECT,
  MAX_TEXT,
  type ArticleSummary,
  type CustomerConversation,
  type CustomerMessage,
} from '@tandem/contract'
import { listPages, validateId, validateLimit, type PagePromise } from '../collection.js'
import type { Http } from '../http.js'
import type { CallOptions, HttpMethod, Query } from '../types.js'
import { optional, requireObject, requireString } from '../validate.js'
import type { Messenger, MessengerPageParams } from './types.js'

// The customer's REST calls (/support/v1/me/..., and the published docs), each input checked
// before anything is sent: bad input rejects with a `ValidationError` and makes no request. Each
// answer is checked against its line of the contract before anything reads it: `bad_response`.

export type MessengerRest = Pick<Messenger, 'me' | 'docs'> & {
  conversations: Omit<Messenger['conversations'], 'typing'>
}

/** A message's text (blank only beside files), its files (uploaded first) and upload ids given as they are. */
function message(input: unknown): { text: string; files?: readonly Blob[]; attachments?: string[] } {
  const given = requireObject(input, 'input')
  const files = given.files as readonly Blob[] | undefined
  const text =
    Array.isArray(files) && files.length > 0 && given.text === '' ? '' : requireString(given.text, 'text', MAX_TEXT)
  return { text, files, attachments: given.attachments as string[] | undefined }
}

/** `alive` throws once the messenger is shut down: every call checks it first. */
export function createMessengerRest(http: Http, alive: () => void): MessengerRest {
  const send = <T>(
    method: HttpMethod,
    path: string,
    shape: string,
    body: unknown,
    options: CallOptions | undefined,
    files?: readonly Blob[],
  ) => http<T>({ ...options, service: 'support', method, path: `/v1/${path}`, body, shape, files })
  const mine = (id: string, sub = '') => `me/conversations/${validateId(id)}${sub}`

  /** The query is checked inside the promise, before the first request, and re-sent with each cursor. */
  const pageOf =
    <T, P extends MessengerPageParams = MessengerPageParams>(
      path: () => string,
      item: string,
      query: (p: P) => Query = () => ({}),
    ) =>
    (given?: P, options?: CallOptions): PagePromise<T> =>
      listPages<T>(
        http,
        'support',
        options,
        () => {
          alive()
          const p = `/v1/${path()}`
          const params = requireObject(given ?? {}, 'params') as P
          validateLimit(params.limit)
          const cursor = optional(params.cursor, (c) => requireString(c, 'cursor'))
          return [p, { ...query(params), limit: params.limit, cursor }]
        },
        item,
      )

  return {
    async me(options) {
      alive()
      return send('GET', 'me', CUSTOMER_PROFILE_FIELDS, undefined, options)
    },
    conversations: {
      list: pageOf<CustomerConversation>(() => 'me/conversations', CUSTOMER_CONVERSATION_FIELDS),
      async get(id, options) {
        alive()
        return send('GET', mine(id), CUSTOMER_CONVERSATION_FIELDS, undefined, options)
      },
      messages: (id, params, options) =>
        pageOf<CustomerMessage>(() => mine(id, '/messages'), CUSTOMER_MESSAGE_FIELDS)(params, options),
      async start(input, options) {
        alive()
        const { text, files, attachments } = message(input)
        const subject = optional(input.subject, (s) => requireString(s, 'subject', MAX_SUBJECT))
        const body = { text, subject, attachments }
        return send('POST', 'me/conversations', CUSTOMER_CONVERSATION_FIELDS, body, options, files)
      },
      async reply(id, input, options) {
        alive()
        const path = mine(id, '/messages')
        const { text, files, attachments } = message(input)
        return send('POST', path, CUSTOMER_MESSAGE_FIELDS, { text, attachments }, options, files)
      },
      async markRead(id, options) {
        alive()
        return send('POST', mine(id, '/read'), CUSTOMER_CONVERSATION_FIELDS, undefined, options)
      },
    },
    docs: {
      search: pageOf<ArticleSummary, MessengerPageParams & { query: string }>(
        () => 'docs/articles',
        ARTICLE_SUMMARY_FIELDS,
        (p) => ({ query: requireString(p.query, 'query', MAX_QUERY) }),
      ),
      async get(id, options) {
        alive()
        return send('GET', `docs/articles/${validateId(id)}`, ARTICLE_FIELDS, undefined, options)
      },
    },
  }
}
