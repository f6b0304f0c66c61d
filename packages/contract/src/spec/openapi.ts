// The REST contract of the three services, OpenAPI 3.1. Written by hand as a module (helpers
// keep 30 operations' repeated parts, the standard headers and the error answers, in one place);
// `npm run generate` writes it out as spec/openapi.json, which @redocly/cli lints in `npm test`.
import { IDEMPOTENCY_KEY, LIMITS } from '../wire.js'
import {
  HEADERS,
  headerRefs,
  json,
  op,
  p,
  PAGE,
  pathParam,
  query,
  STANDARD_HEADERS,
  without,
  withList,
} from './operations.js'
import { customerPaths } from './customer-paths.js'
import { mapsPaths } from './maps-paths.js'
import { pushPaths, pushWebhooks } from './push-paths.js'
import { uploadHeaders, uploadPaths } from './upload-paths.js'
import { common, customer, epoch, integer, maps, push, ref, realtime, string, support, type Schema } from './schemas.js'

export const openapi: Schema = {
  openapi: '3.1.0',
  info: {
    title: 'Tandem services',
    version: '1.0.0',
    summary: "The REST interface of Tandem's maps, support and realtime services.",
    description:
      "One contract for the three services: @tandem/core's types, @tandem/react's typed collections and " +
      '@tandem/emulator all come from it (and from asyncapi.json for the realtime socket). Every path is below its ' +
      "service's prefix (`/maps`, `/support`, `/realtime`) of one base URL. Every answer carries `X-Request-Id` and " +
      "the caller's `RateLimit-*` headers; errors are `{ error: { code, message, status, requestId, details? } }`. " +
      'Credentials go in the `Authorization` header only, never in a query: a request with `?key=` (or `api_key`, ' +
      '`secret`, `token`, `access_token`) is refused (401 `key_in_url`; 403 `key_not_allowed_in_browser` from a ' +
      'browser), whatever else it carries. Query parameters are `form` style, exploded: a scalar given twice, or ' +
      'any parameter with an empty value, is refused (400 `invalid_parameter`); leave an unused one out.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [
    {
      url: '{baseUrl}',
      description: 'Tandem, or the local emulator',
      variables: { baseUrl: { default: 'http://127.0.0.1:4010' } },
    },
  ],
  security: [{ bearerToken: [] }],
  tags: [
    { name: 'resources', description: 'The generic collection every service offers.' },
    { name: 'maps', description: 'Geocoding, routes, places, address validation, map views.' },
    { name: 'support', description: 'Mailboxes, agents, conversations with threads, docs.' },
    {
      name: 'customers',
      description: 'What a customer token (scope `support:customer`) may do: its own conversations.',
    },
    {
      name: 'realtime',
      description: "The realtime service's REST face (the socket: asyncapi.json), and Web Push (docs/push.md).",
    },
  ],
  paths: {
    '/{service}/v1/resources': {
      parameters: [p('service')],
      get: withList(
        'support/resources',
        op('listResources', 'resources', 'List resources, oldest first', {
          parameters: PAGE,
          answers: { 200: 'ResourcePage' },
        }),
      ),
      post: op('createResource', 'resources', 'Create a resource', {
        body: 'ResourceCreate',
        write: true,
        answers: { 201: 'Resource' },
      }),
    },
    '/{service}/v1/resources/{id}': {
      parameters: [p('service'), p('id')],
      get: op('getResource', 'resources', 'One resource', { answers: { 200: 'Resource' } }),
      patch: op('updateResource', 'resources', "Change a resource's name or attributes (attributes are merged)", {
        body: 'ResourceUpdate',
        write: true,
        answers: { 200: 'Resource' },
      }),
      delete: op('deleteResource', 'resources', 'Delete a resource', { write: true, answers: { 204: null } }),
    },

    ...mapsPaths,

    '/support/v1/mailboxes': {
      get: op('listMailboxes', 'support', 'Mailboxes', { parameters: PAGE, answers: { 200: 'MailboxPage' } }),
    },
    '/support/v1/mailboxes/{id}': {
      parameters: [p('id')],
      get: op('getMailbox', 'support', 'One mailbox', { answers: { 200: 'Mailbox' } }),
    },
    '/support/v1/agents': {
      get: op('listAgents', 'support', 'Agents', { parameters: PAGE, answers: { 200: 'AgentPage' } }),
    },
    '/support/v1/conversations': {
      get: withList(
        'support/conversations',
        op('listConversations', 'support', 'Conversations, most recently modified first', {
          parameters: [
            query('mailboxId', string({ maxLength: LIMITS.id })),
            query('status', ref('ConversationStatus'), 'All statuses when absent.'),
            query('tag', string({ maxLength: LIMITS.tag }), 'One tag, case-insensitive.'),
            query(
              'query',
              string({ maxLength: LIMITS.query }),
              'Every word in the subject, preview, customer or a message.',
            ),
            query('modifiedSince', string({ format: 'date-time' }), 'Modified at or after this instant.'),
            ...PAGE,
          ],
          answers: { 200: 'ConversationPage' },
        }),
      ),
      post: op('createConversation', 'support', 'Open a conversation', {
        body: 'ConversationCreate',
        write: true,
        answers: { 201: 'Conversation' },
      }),
    },
    '/support/v1/conversations/{id}': {
      parameters: [p('id')],
      get: op('getConversation', 'support', 'One conversation', { answers: { 200: 'Conversation' } }),
      patch: op('updateConversation', 'support', 'Change status, assignee or tags', {
        description: 'Statuses: active ↔ pending, and either → closed. A closed conversation reopens only by a reply.',
        body: 'ConversationUpdate',
        write: true,
        answers: { 200: 'Conversation' },
      }),
    },
    '/support/v1/conversations/{id}/threads': {
      parameters: [p('id')],
      get: op('listThreads', 'support', "A conversation's threads, oldest first", {
        parameters: PAGE,
        answers: { 200: 'ThreadPage' },
      }),
    },
    '/support/v1/conversations/{id}/reply': {
      parameters: [p('id')],
      post: op('replyToConversation', 'support', 'Reply (reopens a closed conversation)', {
        body: 'ReplyCreate',
        write: true,
        answers: { 201: 'Thread' },
      }),
    },
    '/support/v1/conversations/{id}/notes': {
      parameters: [p('id')],
      post: op('addNote', 'support', 'Add an internal note', {
        body: 'NoteCreate',
        write: true,
        answers: { 201: 'Thread' },
      }),
    },
    ...customerPaths,
    ...uploadPaths,
    '/support/v1/docs/collections': {
      get: op('listDocCollections', 'support', 'Help-centre collections', {
        parameters: PAGE,
        answers: { 200: 'DocCollectionPage' },
      }),
    },
    '/support/v1/docs/articles': {
      get: op('listArticles', 'support', 'Articles, or a search with `query`', {
        parameters: [
          query('query', string({ maxLength: LIMITS.query })),
          query('collectionId', string({ maxLength: LIMITS.id })),
          ...PAGE,
        ],
        answers: { 200: 'ArticleSummaryPage' },
      }),
    },
    '/support/v1/docs/articles/{id}': {
      parameters: [p('id')],
      get: op('getArticle', 'support', 'One article, with its text', { answers: { 200: 'Article' } }),
    },

    '/realtime/v1/channels/{channel}/messages': {
      parameters: [p('channel')],
      post: op('publish', 'realtime', 'Publish a message', {
        description: '201 when stored; 200 with `duplicate: true` for an idempotency key already used on the channel.',
        body: 'PublishRequest',
        write: true,
        answers: { 200: 'PublishResult', 201: 'PublishResult' },
      }),
      get: op('history', 'realtime', "A channel's retained messages", {
        parameters: [
          query('sinceEpoch', epoch(), 'With `sinceOffset`.'),
          query('sinceOffset', integer({ minimum: 0 }), 'With `sinceEpoch`.'),
          query(
            'limit',
            integer({ minimum: LIMITS.history.min, maximum: LIMITS.history.max, default: LIMITS.history.default }),
          ),
        ],
        answers: { 200: 'HistoryResult' },
      }),
    },
    '/realtime/v1/channels/{channel}/presence': {
      parameters: [p('channel')],
      get: op('presence', 'realtime', "A channel's members", { answers: { 200: 'PresenceResult' } }),
    },
    '/realtime/v1/channels': {
      get: op('listChannels', 'realtime', 'Channels of the app', {
        parameters: [query('prefix', string({ maxLength: LIMITS.query })), ...PAGE],
        answers: { 200: 'ChannelPage' },
      }),
    },
    ...pushPaths,
  },
  webhooks: pushWebhooks,
  components: {
    securitySchemes: {
      bearerToken: {
        type: 'http',
        scheme: 'bearer',
        description:
          "`Authorization: Bearer <credential>`. Either a short-lived JWT minted by the app's backend with " +
          '@tandem/server (`mintToken`; three base64url parts joined by dots, never a colon), or, from a server ' +
          "only, the app's raw key `<keyId>:<secret>` (the first colon ends the key id), which acts as the app " +
          'itself (subject `key:<keyId>`, every capability). A raw key from a browser (a request with `Origin`, ' +
          '`Referer` or `Sec-Fetch-Site`/`-Dest`/`-User`) is refused 403 `key_not_allowed_in_browser` before it is ' +
          'checked; a wrong one is 401 `invalid_key`. The realtime socket takes tokens only, in its `connect` frame.',
      },
    },
    headers: { ...HEADERS, ...uploadHeaders },
    parameters: {
      service: pathParam('service', ref('ServiceName')),
      id: pathParam('id'),
      channel: pathParam('channel', ref('ChannelName')),
      limit: query(
        'limit',
        integer({ minimum: LIMITS.page.min, maximum: LIMITS.page.max, default: LIMITS.page.default }),
        'Page size.',
      ),
      cursor: query('cursor', string(), 'The `nextCursor` of the previous page.'),
      idempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'A repeat of the same write within 24 h replays the first answer (`Idempotent-Replayed: true`).',
        schema: string({ minLength: 1, maxLength: LIMITS.idempotencyKey, pattern: IDEMPOTENCY_KEY.source }),
      },
    },
    responses: {
      Error: {
        description: 'An error: 400 invalid input, 401 no or bad token, 403 scope, 404, 409, 413, 415, 422, 5xx.',
        headers: STANDARD_HEADERS,
        content: json(ref('Error')),
      },
      RateLimited: {
        description:
          'Over a plan: retry after `Retry-After` seconds. A customer token is refused on its own bucket first ' +
          "(`details[0].bucket`: `customer`), then on the app's (`app`).",
        headers: { ...STANDARD_HEADERS, ...headerRefs(['Retry-After']) },
        content: json(ref('RateLimitedError')),
      },
    },
    schemas: { ...common, ...maps, ...support, ...customer, ...without(realtime, 'Position'), ...push },
  },
}
