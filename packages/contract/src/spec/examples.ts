// Every operation's documented requests (`x-tandem-examples` in openapi.json, and the bodies as
// the request body's `examples`): what a caller sends and what the service answers. Tests send
// each one: through Prism in strict mode (the emulator's prism.test.ts) and as the valid base of
// the generated conformance cases (its spec/rest-cases.ts), so an example that stops working fails.
import { CUSTOMER_SCOPE } from '../customer.js'
import type { Schema } from './helpers.js'

/**
 * Ids of the emulator's seeded data (its default seed, 1): the examples reach real records. A
 * test of the emulator holds them equal to what the seed makes.
 */
export const SEEDED = {
  mailboxId: 'mbx_536cejfo7v0o',
  agentId: 'agt_1jniylw45te5',
  /** The first `active` conversation. */
  conversationId: 'cnv_23ubm1yomvq0',
  articleId: 'art_g672wy6mvwow',
  collectionId: 'col_jzdkrofez7h2',
  /** The first `pending` conversation, and its customer (who sends the `/support/v1/me` examples). */
  myConversationId: 'cnv_p6cmlj5826j4',
  customerId: 'cus_295',
  /** `nextCursor` of `GET /support/v1/resources?limit=2`: the page after `res_sup_2`. */
  resourceCursor: 'eyJzIjoic3VwcG9ydCIsImEiOjJ9',
} as const

/**
 * Who sends an example: a token (`mintToken`) with these capabilities, its subject a customer's id
 * for `support:customer`; the app's raw key `<keyId>:<secret>` in `Authorization: Bearer`; or
 * nobody (`anonymous`: no `Authorization`, for the one operation with `security: []`).
 */
export type ExampleCaller = { scope: string[]; subject?: string } | 'raw-key' | 'anonymous'

export interface RequestExample {
  summary: string
  caller: ExampleCaller
  params?: Record<string, string>
  query?: Record<string, string>
  /** Headers besides `Authorization` (an `Idempotency-Key`, what a browser adds). */
  headers?: Record<string, string>
  body?: Schema
  /** What the service answers; the examples of one operation run in order, on fresh seeded data. */
  status: number
}

const LISBON = { lat: 38.72, lng: -9.14 }
const PORTO = { lat: 41.15, lng: -8.61 }
const read = { scope: ['support:read'] }
const write = { scope: ['support:write'] }
const maps = { scope: ['maps'] }
const customer = { scope: [CUSTOMER_SCOPE], subject: SEEDED.customerId }
const room = 'conf:room'
// Every channel's capability (`realtime:publish` covers `realtime:publish:<channel>`), so the
// generated cases that break the channel name reach the name check, not the scope check.
const publisher = { scope: ['realtime:publish'] }
const subscriber = { scope: ['realtime:subscribe'] }
const resource = { service: 'support', id: 'res_sup_3' }
const conversation = { id: SEEDED.conversationId }
const mine = { id: SEEDED.myConversationId }
/** Browsers' push subscriptions (real P-256 keys and secrets) on a push service that does not exist. */
const PUSH_SUBSCRIPTIONS = [
  ['BKPEWXJKkFvzpUlCTEZyXdsLlKae9urRv1Tjp9YwW4LVtDTnGZ2gw7ma5Zl3lon9N2a2h7gwvfB29B3jiIwHJOw', 'r3yHaBoz4nzeh1yi1xjx5w'],
  ['BJG-eTBEls4vZPTKjzYY0RvJCg4wwDloR5_9trcQ1hBj7DnbzPqcCS_VgnmOEYM6jjSPR149KdpYRpiB7ncPRLo', '_lfW3GOwELuiubOIwV9bJw'],
  ['BGapQubGTv0hjJ6lm1QtksAj4mixgfxF_v9V8ajDuzvgJgYx7D_e1gg2truO0dfzlnZ4K0pYfoegoQgX0EeJ-fM', '1NK0HviuLf-rDp_T06_jbg'],
].map(([p256dh, auth], i) => ({ endpoint: `https://push.example/send/example-${i + 1}`, keys: { p256dh, auth } }))
const [pushA, pushB, pushC] = PUSH_SUBSCRIPTIONS as [PushSub, PushSub, PushSub]
type PushSub = { endpoint: string; keys: { p256dh: string; auth: string } }
/**
 * The id the emulator gives its first push registration (seed 1): the customer's, made by the
 * first `registerPushSubscription` example. A test of the emulator holds it equal.
 */
export const FIRST_PUSH_SUBSCRIPTION = 'psb_mc0qvq0qbzz5'
/** One example, answered 200 unless `status` says otherwise. */
const ex = (summary: string, caller: ExampleCaller, rest: Partial<RequestExample> = {}): RequestExample => ({
  summary,
  caller,
  status: 200,
  ...rest,
})

/** By operationId. Each constrained optional input is filled in once, so the generated cases can break it. */
export const REQUEST_EXAMPLES: Record<string, RequestExample[]> = {
  listResources: [
    ex('The second page', read, {
      params: { service: 'support' },
      query: { limit: '5', cursor: SEEDED.resourceCursor },
    }),
    ex("A server with the app's raw key", 'raw-key', { params: { service: 'maps' }, query: { limit: '1' } }),
    ex('A raw key from a browser: refused before it is checked', 'raw-key', {
      params: { service: 'maps' },
      headers: { Origin: 'https://app.example' },
      status: 403,
    }),
  ],
  createResource: [
    ex('Create', write, {
      params: { service: 'support' },
      body: { name: 'Printer', attributes: { floor: 2 } },
      headers: { 'Idempotency-Key': 'example-create-1' },
      status: 201,
    }),
    ex("A server with the app's raw key", 'raw-key', {
      params: { service: 'support' },
      body: { name: 'Server side' },
      status: 201,
    }),
  ],
  getResource: [ex('One resource', read, { params: resource })],
  updateResource: [
    ex('Rename and merge attributes', write, { params: resource, body: { name: 'Printer', attributes: { floor: 3 } } }),
  ],
  deleteResource: [ex('Delete', write, { params: { service: 'support', id: 'res_sup_4' }, status: 204 })],
  geocode: [ex('Forward', maps, { body: { query: 'Lisbon' } }), ex('Reverse', maps, { body: { location: LISBON } })],
  computeRoute: [
    ex('Through a waypoint', maps, {
      body: { origin: LISBON, destination: { placeId: 'country_PT' }, waypoints: [PORTO], mode: 'drive' },
    }),
  ],
  searchPlaces: [
    ex('Cities near Lisbon', maps, {
      query: { query: 'lis', near: '38.72,-9.14', radiusMeters: '50000', type: 'city', limit: '5' },
    }),
  ],
  autocompletePlaces: [
    ex('A house number and a street', maps, { query: { input: '1600 amph', near: '37.42,-122.08', limit: '5' } }),
  ],
  validateAddress: [
    ex('A Lisbon address', maps, {
      body: { regionCode: 'PT', addressLines: ['Rua Augusta 100'], locality: 'Lisbon', postalCode: '1100-053' },
    }),
  ],
  getMapView: [
    ex('By center and zoom', maps, { query: { center: '38.72,-9.14', zoom: '6' } }),
    ex('By bounding box', maps, { query: { bbox: '-10,36,4,44' } }),
  ],
  listMailboxes: [ex('A page', read, { query: { limit: '5' } })],
  getMailbox: [ex('One mailbox', read, { params: { id: SEEDED.mailboxId } })],
  listAgents: [ex('A page', read, { query: { limit: '5' } })],
  listConversations: [
    ex('Every filter', read, {
      query: {
        mailboxId: SEEDED.mailboxId,
        status: 'active',
        tag: 'billing',
        query: 'order',
        modifiedSince: '2024-01-01T00:00:00Z',
        limit: '5',
      },
    }),
  ],
  createConversation: [
    ex('Open one', write, {
      body: {
        mailboxId: SEEDED.mailboxId,
        subject: 'Where is my order?',
        customer: { email: 'ana@example.com', name: 'Ana' },
        text: 'It has not arrived.',
        tags: ['shipping'],
        status: 'active',
        assigneeId: SEEDED.agentId,
      },
      status: 201,
    }),
  ],
  getConversation: [ex('One conversation', read, { params: conversation })],
  updateConversation: [
    ex('Close and assign', write, {
      params: conversation,
      body: { status: 'closed', assigneeId: SEEDED.agentId, tags: ['shipping'] },
    }),
  ],
  listThreads: [ex('A page', read, { params: conversation, query: { limit: '5' } })],
  replyToConversation: [
    ex('Reply', write, { params: conversation, body: { text: 'On its way.', status: 'pending' }, status: 201 }),
  ],
  addNote: [ex('A note', write, { params: conversation, body: { text: 'Checked the carrier.' }, status: 201 })],
  listDocCollections: [ex('A page', read, { query: { limit: '5' } })],
  listArticles: [
    ex('A search in one collection', read, {
      query: { query: 'password', collectionId: SEEDED.collectionId, limit: '5' },
    }),
  ],
  getArticle: [ex('One article', read, { params: { id: SEEDED.articleId } })],
  getMe: [ex('The customer', customer)],
  listMyConversations: [ex('A page', customer, { query: { limit: '5' } })],
  startConversation: [
    ex('Start one', customer, {
      body: { text: 'My parcel has not arrived.', subject: 'Where is my parcel?' },
      status: 201,
    }),
  ],
  getMyConversation: [ex('One of mine', customer, { params: mine })],
  listMyMessages: [ex('A page', customer, { params: mine, query: { limit: '5' } })],
  sendMyMessage: [ex('Reply', customer, { params: mine, body: { text: 'Any news?', attachments: [] }, status: 201 })],
  markMyConversationRead: [ex('Read it all', customer, { params: mine })],
  setMyTyping: [
    ex('Typing', customer, { params: mine, body: { typing: true }, status: 204 }),
    ex('Stopped', customer, { params: mine, body: { typing: false }, status: 204 }),
  ],
  publish: [
    ex('Publish', publisher, {
      params: { channel: room },
      body: { event: 'said', data: { text: 'hi' } },
      headers: { 'Idempotency-Key': 'example-publish-1' },
      status: 201,
    }),
    ex("A server with the app's raw key (`clientId`: `key:<keyId>`)", 'raw-key', {
      params: { channel: room },
      body: { event: 'said', data: { text: 'from the server' } },
      status: 201,
    }),
  ],
  history: [
    ex('Since a position', subscriber, {
      params: { channel: room },
      query: { sinceEpoch: 'e1', sinceOffset: '0', limit: '10' },
    }),
  ],
  presence: [ex('The members', subscriber, { params: { channel: room } })],
  listChannels: [ex('By prefix', { scope: ['realtime:read'] }, { query: { prefix: 'conf:', limit: '5' } })],
  getPushKey: [ex('The VAPID public key', customer)],
  listPushSubscriptions: [ex('Mine', customer)],
  registerPushSubscription: [
    ex('A customer’s browser', customer, {
      body: { ...pushA, expirationTime: null, url: 'https://app.example/help?c={conversationId}' },
      status: 201,
    }),
    ex('An agent, for one mailbox', read, {
      body: { ...pushB, expirationTime: 1_900_000_000_000, mailboxIds: [SEEDED.mailboxId], url: null },
      status: 201,
    }),
    ex('The same endpoint again: updated in place', customer, { body: { ...pushA, url: null } }),
  ],
  renewPushSubscription: [
    ex('The browser changed it (a service worker, no token)', 'anonymous', {
      body: { oldEndpoint: pushA.endpoint, auth: pushA.keys.auth, subscription: { ...pushC, expirationTime: null } },
    }),
    ex('Another secret: the same 404 as no subscription', 'anonymous', {
      body: { oldEndpoint: pushB.endpoint, auth: pushC.keys.auth, subscription: { ...pushC, expirationTime: null } },
      status: 404,
    }),
  ],
  removePushSubscription: [
    ex('Another subject’s: a 404, as if it did not exist', read, {
      params: { id: FIRST_PUSH_SUBSCRIPTION },
      headers: { 'Idempotency-Key': 'example-remove-push-1' },
      status: 404,
    }),
    ex('Remove', customer, { params: { id: FIRST_PUSH_SUBSCRIPTION }, status: 204 }),
  ],
}

/** An operation's examples; the document cannot be built without them. */
export function examplesOf(operationId: string): RequestExample[] {
  const found = REQUEST_EXAMPLES[operationId]
  if (!found?.length) throw new Error(`no request example for ${operationId}: add one to spec/examples.ts`)
  return found
}
