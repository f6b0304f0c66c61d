// One valid input per operation and client frame, with every optional field that has constraints
// filled in, so the generator can break each one. Valid means the service accepts it: ids that
// exist (read from the seeded emulator), stops on one land mass, a known region.

/** Ids read from the seeded emulator before the cases run. */
export interface Seeded {
  mailboxId: string
  agentId: string
  conversationId: string
  articleId: string
  collectionId: string
  /** A conversation of the customer whose token sends the `/support/v1/me` examples. */
  myConversationId: string
}

export interface RestExample {
  params?: Record<string, string>
  query?: Record<string, string>
  body?: Record<string, unknown>
}

const LISBON = { lat: 38.72, lng: -9.14 }
const PORTO = { lat: 41.15, lng: -8.61 }

/** By operationId; an array gives variants (a view by `center` or by `bbox`, never both). */
export function restExamples(ids: Seeded): Record<string, RestExample | RestExample[]> {
  const resource = { params: { service: 'support', id: 'res_sup_3' } }
  return {
    listResources: { params: { service: 'support' }, query: { limit: '5', cursor: '' } },
    createResource: { params: { service: 'support' }, body: { name: 'Printer', attributes: { floor: 2 } } },
    getResource: resource,
    updateResource: { ...resource, body: { name: 'Printer', attributes: { floor: 3 } } },
    deleteResource: { params: { service: 'support', id: 'res_sup_4' } },
    geocode: [{ body: { query: 'Lisbon' } }, { body: { location: LISBON } }],
    computeRoute: {
      body: { origin: LISBON, destination: { placeId: 'country_PT' }, waypoints: [PORTO], mode: 'drive' },
    },
    searchPlaces: {
      query: { query: 'lis', near: '38.72,-9.14', radiusMeters: '50000', type: 'city', limit: '5' },
    },
    autocompletePlaces: { query: { input: '1600 amph', near: '37.42,-122.08', limit: '5' } },
    validateAddress: {
      body: { regionCode: 'PT', addressLines: ['Rua Augusta 100'], locality: 'Lisbon', postalCode: '1100-053' },
    },
    getMapView: [{ query: { center: '38.72,-9.14', zoom: '6' } }, { query: { bbox: '-10,36,4,44' } }],
    listMailboxes: { query: { limit: '5' } },
    getMailbox: { params: { id: ids.mailboxId } },
    listAgents: { query: { limit: '5' } },
    listConversations: {
      query: {
        mailboxId: ids.mailboxId,
        status: 'active',
        tag: 'billing',
        query: 'order',
        modifiedSince: '2024-01-01T00:00:00Z',
        limit: '5',
      },
    },
    createConversation: {
      body: {
        mailboxId: ids.mailboxId,
        subject: 'Where is my order?',
        customer: { email: 'ana@example.com', name: 'Ana' },
        text: 'It has not arrived.',
        tags: ['shipping'],
        status: 'active',
        assigneeId: ids.agentId,
      },
    },
    getConversation: { params: { id: ids.conversationId } },
    updateConversation: {
      params: { id: ids.conversationId },
      body: { status: 'closed', assigneeId: ids.agentId, tags: ['shipping'] },
    },
    listThreads: { params: { id: ids.conversationId }, query: { limit: '5' } },
    replyToConversation: { params: { id: ids.conversationId }, body: { text: 'On its way.', status: 'pending' } },
    addNote: { params: { id: ids.conversationId }, body: { text: 'Checked the carrier.' } },
    listDocCollections: { query: { limit: '5' } },
    listArticles: { query: { query: 'password', collectionId: ids.collectionId, limit: '5' } },
    getArticle: { params: { id: ids.articleId } },
    getMe: {},
    listMyConversations: { query: { limit: '5' } },
    startConversation: { body: { text: 'My parcel has not arrived.', subject: 'Where is my parcel?' } },
    getMyConversation: { params: { id: ids.myConversationId } },
    listMyMessages: { params: { id: ids.myConversationId }, query: { limit: '5' } },
    sendMyMessage: { params: { id: ids.myConversationId }, body: { text: 'Any news?' } },
    markMyConversationRead: { params: { id: ids.myConversationId } },
    publish: { params: { channel: 'conf:room' }, body: { event: 'said', data: { text: 'hi' } } },
    history: { params: { channel: 'conf:room' }, query: { sinceEpoch: 'e1', sinceOffset: '0', limit: '10' } },
    presence: { params: { channel: 'conf:room' } },
    listChannels: { query: { prefix: 'conf:', limit: '5' } },
  }
}

/** By frame type (without `id`, which each case sets); `connect` and `auth` get a token. */
export function frameExamples(token: string): Record<string, Record<string, unknown>> {
  const since = { epoch: 'e1', offset: 0 }
  return {
    connect: { type: 'connect', token, resume: { connectionId: 'conn_gone' } },
    subscribe: { type: 'subscribe', channels: [{ channel: 'conf:room', since }] },
    unsubscribe: { type: 'unsubscribe', channels: ['conf:other'] },
    publish: { type: 'publish', channel: 'conf:room', event: 'said', data: 1, idempotencyKey: 'key-1' },
    'presence.enter': { type: 'presence.enter', channel: 'conf:room', data: { name: 'Ana' } },
    'presence.update': { type: 'presence.update', channel: 'conf:room', data: { name: 'Ana' } },
    'presence.leave': { type: 'presence.leave', channel: 'conf:room' },
    'presence.get': { type: 'presence.get', channel: 'conf:room' },
    history: { type: 'history', channel: 'conf:room', since, limit: 10 },
    auth: { type: 'auth', token },
    ping: { type: 'ping' },
  }
}
