// Web Push (docs/push.md): the service's VAPID key, a browser's push subscription as a subject
// registers it, and what a push carries. Limits and patterns come from push.ts.
import { PUSH, PUSH_AUTH, PUSH_ENDPOINT, PUSH_KIND, PUSH_P256DH, PUSH_PUBLIC_KEY, PUSH_URL } from '../push.js'
import { LIMITS } from '../wire.js'
import { array, dateTime, integer, nullable, object, page, string, type Schema } from './helpers.js'

const endpoint = string({
  maxLength: PUSH.endpointChars,
  pattern: PUSH_ENDPOINT.source,
  description:
    'The push service URL the browser gave (`PushSubscription.endpoint`): absolute https, no credentials, no fragment.',
})
const keys = object(
  {
    p256dh: string({
      pattern: PUSH_P256DH.source,
      description: 'The browser’s P-256 public key (65 bytes), base64url.',
    }),
    auth: string({ pattern: PUSH_AUTH.source, description: 'The authentication secret (16 bytes), base64url.' }),
  },
  [],
  { description: '`PushSubscription.toJSON().keys`.' },
)
const expirationTime = nullable(
  integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Epoch ms when the browser ends it, or null.' }),
)
const mailboxIds = nullable(
  array(string({ minLength: 1, maxLength: LIMITS.id }), {
    maxItems: PUSH.mailboxIds,
    uniqueItems: true,
    description:
      'An agent’s mailboxes: pushes for customers’ messages in these only; every mailbox when absent or null. A customer may not send it.',
  }),
)
const url = nullable(
  string({
    maxLength: PUSH.endpointChars,
    pattern: PUSH_URL.source,
    description: 'What a click opens: absolute https (or http on a loopback host); `{conversationId}` is replaced.',
  }),
)
const subscriptionId = string({ pattern: '^psb_' })

export const push: Record<string, Schema> = {
  PushPublicKey: object({
    publicKey: string({
      pattern: PUSH_PUBLIC_KEY.source,
      description:
        'The service’s VAPID public key (RFC 8292), base64url: `applicationServerKey` of `pushManager.subscribe`.',
      examples: ['BGapQubGTv0hjJ6lm1QtksAj4mixgfxF_v9V8ajDuzvgJgYx7D_e1gg2truO0dfzlnZ4K0pYfoegoQgX0EeJ-fM'],
    }),
  }),
  PushSubscriptionCreate: object(
    { endpoint, keys, expirationTime, mailboxIds, url },
    ['expirationTime', 'mailboxIds', 'url'],
    {
      description:
        'A browser’s push subscription, for the token’s subject in its app. The same endpoint again updates it.',
    },
  ),
  PushSubscriptionRenew: object(
    {
      oldEndpoint: endpoint,
      auth: string({
        pattern: PUSH_AUTH.source,
        description: 'The OLD subscription’s auth secret: the proof that the caller held it.',
      }),
      subscription: object({ endpoint, keys, expirationTime }, ['expirationTime']),
    },
    [],
    { description: 'A service worker’s `pushsubscriptionchange`: the old subscription replaced by the new, no token.' },
  ),
  PushSubscription: object({
    id: subscriptionId,
    endpoint: string(),
    kind: string({ enum: [...PUSH_KIND] }),
    mailboxIds: nullable(array(string())),
    url: nullable(string()),
    expirationTime: nullable(integer({ minimum: 0 })),
    createdAt: dateTime,
  }),
  PushSubscriptionPage: page(
    'PushSubscription',
    'The subject’s subscriptions in this app, oldest first: one page (at most 10), `nextCursor` null.',
  ),
  PushPayload: object(
    {
      v: integer({ minimum: 1, maximum: 1, description: 'The payload version: 1.' }),
      type: string({ enum: ['message'] }),
      channel: string({
        description:
          'The realtime channel the message was said on (`support:customer:<id>`, or `support:conversations`).',
      }),
      messageId: string({ pattern: '^thr_', description: 'The message (thread) id: one notification per id.' }),
      conversationId: string({
        pattern: '^cnv_',
        description: 'The notification’s `tag`: a newer one replaces an older one.',
      }),
      title: string({
        maxLength: PUSH.titleChars,
        description: 'Who wrote: the agent’s name, or the customer’s name or email.',
      }),
      body: string({ maxLength: PUSH.bodyChars, description: 'The message’s text, shortened.' }),
      url: nullable(
        string({ description: 'The subscription’s `url`, its `{conversationId}` filled in; null when it has none.' }),
      ),
      sentAt: dateTime,
    },
    [],
    { description: 'What a push carries, decrypted (RFC 8291): JSON of at most PUSH.payloadBytes bytes.' },
  ),
}
