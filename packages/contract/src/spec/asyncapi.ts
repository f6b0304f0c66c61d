// The realtime socket's contract, AsyncAPI 3.0: every frame each side sends, as JSON Schema.
// `npm run generate` writes it out as spec/asyncapi.json (linted by @redocly/cli) and the frame types.
import { CLOSE, IDEMPOTENCY_KEY, LIMITS, REALTIME_ERROR_CODES } from '../wire.js'
import { CUSTOMER_EVENTS } from '../customer.js'
import { resourcePresenceChannel } from '../resource-presence.js'
import {
  anyJson,
  array,
  boolean,
  customer,
  customerSocket,
  integer,
  object,
  realtime,
  ref,
  string,
  support,
  type Schema,
} from './schemas.js'

const id: Schema = {
  type: ['string', 'number'],
  minLength: 1,
  maxLength: 128,
  description: 'Chosen by the client (a string of 1–128 characters, or a number); echoed by the reply.',
}
const frame = (type: string, fields: Record<string, Schema> = {}, optional: string[] = [], description?: string) =>
  object({ type: string({ const: type }), ...fields }, optional, description ? { description } : {})
const since = ref('Position')

/** What a client sends. */
const client = {
  ConnectFrame: frame(
    'connect',
    { id, token: string({ minLength: 1 }), resume: object({ connectionId: string() }) },
    ['resume'],
    'The first frame, within 10 s of opening. No token ever travels in the URL.',
  ),
  SubscribeFrame: frame('subscribe', {
    id,
    channels: array(object({ channel: ref('ChannelName'), since }, ['since']), {
      minItems: 1,
      maxItems: LIMITS.subscribeChannels,
    }),
  }),
  UnsubscribeFrame: frame('unsubscribe', {
    id,
    channels: array(ref('ChannelName'), { minItems: 1, maxItems: LIMITS.subscribeChannels }),
  }),
  PublishFrame: frame(
    'publish',
    {
      id,
      channel: ref('ChannelName'),
      event: string({ minLength: 1, maxLength: LIMITS.eventName }),
      data: anyJson,
      idempotencyKey: string({ pattern: IDEMPOTENCY_KEY.source }),
    },
    ['data'],
  ),
  PresenceEnterFrame: frame('presence.enter', { id, channel: ref('ChannelName'), data: anyJson }, ['data']),
  PresenceUpdateFrame: frame('presence.update', { id, channel: ref('ChannelName'), data: anyJson }, ['data']),
  PresenceLeaveFrame: frame('presence.leave', { id, channel: ref('ChannelName') }),
  PresenceGetFrame: frame('presence.get', { id, channel: ref('ChannelName') }),
  HistoryRequestFrame: frame(
    'history',
    {
      id,
      channel: ref('ChannelName'),
      since,
      limit: integer({ minimum: LIMITS.history.min, maximum: LIMITS.history.max }),
    },
    ['since', 'limit'],
  ),
  AuthFrame: frame('auth', { id, token: string({ minLength: 1 }) }),
  PingFrame: frame('ping', { id }),
}

const errorBody = object(
  {
    code: string({ description: `${REALTIME_ERROR_CODES.join(', ')}, …` }),
    message: string(),
    temporary: boolean,
    retryAfterMs: integer({ minimum: 0 }),
    requestId: string(),
  },
  ['temporary', 'retryAfterMs', 'requestId'],
)

/** What the server sends: replies (with the request's `id`) and pushes (without). */
const server = {
  ErrorBody: errorBody,
  SubscribeResult: object(
    {
      channel: string(),
      epoch: string(),
      offset: integer({ minimum: 0 }),
      recovered: boolean,
      missed: array(ref('Message')),
      error: ref('ErrorBody'),
    },
    ['epoch', 'offset', 'recovered', 'missed', 'error'],
    { description: 'One channel of a `subscribed` reply: its position and what it missed, or its error.' },
  ),
  ConnectedFrame: frame(
    'connected',
    {
      id,
      connectionId: string(),
      heartbeatMs: integer({ minimum: 1 }),
      maxMessageBytes: integer({ minimum: 1 }),
      expiresIn: integer({ description: "The token's remaining lifetime, in seconds, by the server's clock." }),
      resumed: boolean,
    },
    ['resumed'],
  ),
  SubscribedFrame: frame('subscribed', { id, channels: array(ref('SubscribeResult')) }),
  UnsubscribedFrame: frame('unsubscribed', { id, channels: array(string()) }),
  AckFrame: frame(
    'ack',
    {
      id,
      channel: string(),
      offset: integer({ minimum: 1 }),
      epoch: string(),
      messageId: string(),
      duplicate: boolean,
    },
    ['channel', 'duplicate'],
  ),
  OkFrame: frame('ok', { id }),
  PresenceMembersFrame: frame('presence.members', { id, channel: string(), members: array(ref('Member')) }, [
    'channel',
  ]),
  HistoryFrame: frame(
    'history',
    {
      id,
      channel: string(),
      epoch: string(),
      offset: integer({ minimum: 0 }),
      messages: array(ref('Message')),
      complete: boolean,
    },
    ['channel'],
  ),
  AuthedFrame: frame('authed', { id, expiresIn: integer() }),
  PongFrame: frame('pong', { id }),
  MessageFrame: {
    ...frame('message', {
      channel: string(),
      event: string(),
      data: anyJson,
      offset: integer({ minimum: 1 }),
      epoch: string(),
      messageId: string(),
      clientId: string(),
      ts: integer({ minimum: 0 }),
    }),
    required: ['type', 'channel', 'event', 'data', 'offset', 'epoch', 'messageId', 'ts'],
  },
  PresenceEventFrame: frame('presence.event', {
    channel: string(),
    action: string({ enum: ['enter', 'update', 'leave'] }),
    member: ref('Member'),
    ts: integer({ minimum: 0 }),
  }),
  HeartbeatFrame: frame('heartbeat', { ts: integer({ minimum: 0 }) }, ['ts']),
  ErrorFrame: frame('error', { id, error: ref('ErrorBody') }, ['id'], 'A failed request (with its `id`), or a push.'),
}

const CLIENT_FRAMES = Object.keys(client)
const SERVER_FRAMES = Object.keys(server).filter((name) => name.endsWith('Frame'))
const messages = (names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { name, contentType: 'application/json', payload: ref(name) }]))
const messageRefs = (names: string[], channel = 'socket') =>
  names.map((name) => ({ $ref: `#/channels/${channel}/messages/${name}` }))

/** A channel's messages, by event name: each `message` push's `event` and its `data`. */
const events = (byEvent: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(byEvent).map(([event, schema]) => [
      event,
      { name: event, title: `"${event}"`, contentType: 'application/json', payload: ref(schema) },
    ]),
  )
const CUSTOMER_CHANNEL_EVENTS = {
  [CUSTOMER_EVENTS.message]: 'CustomerMessage',
  [CUSTOMER_EVENTS.conversation]: 'CustomerConversation',
  [CUSTOMER_EVENTS.typing]: 'CustomerTyping',
}

export const asyncapi: Schema = {
  asyncapi: '3.0.0',
  info: {
    title: 'Tandem realtime socket',
    version: '1.0.0',
    description:
      'One WebSocket per client carries every channel; frames are JSON text, one object each. Close codes ' +
      '(4000–4099 fatal, 4100–4199 re-authenticate, 4200–4299 reconnect) are in `x-close-codes`; the prose is ' +
      'docs/protocol.md.',
    license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
  },
  'x-close-codes': CLOSE,
  defaultContentType: 'application/json',
  servers: {
    emulator: { host: '127.0.0.1:4010', protocol: 'ws', description: 'The local emulator (any port).' },
  },
  channels: {
    socket: {
      address: '/realtime/v1/ws',
      title: 'The socket',
      messages: messages([...CLIENT_FRAMES, ...SERVER_FRAMES]),
    },
    customer: {
      address: 'support:customer:{customerId}',
      title: "A customer's channel",
      description:
        'The only channel a customer token may subscribe to, its own. The service alone publishes on it: ' +
        'each `message` push has one of these events, and its `data` is the payload below. Internal notes never.',
      parameters: { customerId: { description: "The customer id: the customer token's subject." } },
      messages: events(CUSTOMER_CHANNEL_EVENTS),
    },
    resourcePresence: {
      address: resourcePresenceChannel('support/conversations'),
      title: 'Who is on a conversation',
      description:
        'One presence channel for the collection: each agent member’s data says which conversations it views, ' +
        'types in and holds a soft lock on. The service checks each member’s data against the payload below ' +
        '(`bad_request` naming the field), relays the agent’s verified `name` (never the one sent), stamps each ' +
        'new lock’s `acquiredAt`, and relays typing to the conversation’s customer channel (at most one `typing` ' +
        'per conversation per second). The service also enters a member per typing customer (clientId ' +
        '`customer:<customerId>`, `typing` holding their conversations, from `setMyTyping`); an agent may not ' +
        'enter with a clientId starting `customer:`.',
      messages: events({ member: 'ResourcePresenceData' }),
    },
  },
  operations: {
    sendFrame: {
      action: 'receive',
      title: 'What a client sends',
      channel: { $ref: '#/channels/socket' },
      security: [{ $ref: '#/components/securitySchemes/token' }],
      messages: messageRefs(CLIENT_FRAMES),
    },
    receiveFrame: {
      action: 'send',
      title: 'What the server sends',
      channel: { $ref: '#/channels/socket' },
      security: [{ $ref: '#/components/securitySchemes/token' }],
      messages: messageRefs(SERVER_FRAMES),
    },
    receiveCustomerEvent: {
      action: 'send',
      title: 'What a customer hears',
      channel: { $ref: '#/channels/customer' },
      security: [{ $ref: '#/components/securitySchemes/token' }],
      messages: messageRefs(Object.keys(CUSTOMER_CHANNEL_EVENTS), 'customer'),
    },
    setResourcePresence: {
      action: 'receive',
      title: 'An agent says where it is',
      channel: { $ref: '#/channels/resourcePresence' },
      security: [{ $ref: '#/components/securitySchemes/token' }],
      messages: messageRefs(['member'], 'resourcePresence'),
    },
  },
  components: {
    securitySchemes: {
      token: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          "The short-lived token, sent in the `connect` frame's `token` (renewed with `auth`): never in the URL.",
      },
    },
    schemas: {
      ChannelName: realtime.ChannelName,
      Position: realtime.Position,
      Message: realtime.Message,
      Member: realtime.Member,
      ConversationStatus: support.ConversationStatus,
      CustomerConversation: customer.CustomerConversation,
      Attachment: support.Attachment,
      CustomerMessage: customer.CustomerMessage,
      ...customerSocket,
      ...client,
      ...server,
      ClientFrame: { oneOf: CLIENT_FRAMES.map(ref) },
      ServerFrame: { oneOf: SERVER_FRAMES.map(ref) },
    },
  },
}
