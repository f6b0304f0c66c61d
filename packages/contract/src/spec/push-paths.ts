// Web Push's REST paths (docs/push.md), on the realtime service: a subject (a customer, or an
// agent) registers its browser's push subscription; the service pushes when no tab of it is open.
import { PUSH } from '../push.js'
import { integer, ref, string, type Schema } from './helpers.js'
import { op, p } from './operations.js'

const TAG = 'realtime'

export const pushPaths: Record<string, Schema> = {
  '/realtime/v1/push/key': {
    get: op('getPushKey', TAG, 'The service’s VAPID public key', { answers: { 200: 'PushPublicKey' } }),
  },
  '/realtime/v1/push/subscriptions': {
    get: op('listPushSubscriptions', TAG, 'The caller’s push subscriptions in this app', {
      answers: { 200: 'PushSubscriptionPage' },
    }),
    post: op('registerPushSubscription', TAG, 'Register a browser’s push subscription', {
      description:
        '201 when new; 200 when the subject already registered this endpoint (updated in place). A customer token ' +
        'registers for its own conversations (`mailboxIds` refused); a token that reads support, for customers’ ' +
        'messages in `mailboxIds` (every mailbox when null). An 11th subscription replaces the subject’s oldest.',
      body: 'PushSubscriptionCreate',
      write: true,
      answers: { 200: 'PushSubscription', 201: 'PushSubscription' },
    }),
  },
  '/realtime/v1/push/subscriptions/renew': {
    post: {
      ...op('renewPushSubscription', TAG, 'Replace a subscription the browser changed (no token)', {
        description:
          'What a service worker’s `pushsubscriptionchange` calls, with no tab (and no token) at hand: the old ' +
          'endpoint and its auth secret prove the caller held it. No such subscription, or another secret: 404 ' +
          '`push_subscription_not_found`, the same answer either way.',
        body: 'PushSubscriptionRenew',
        answers: { 200: 'PushSubscription' },
      }),
      security: [],
    },
  },
  '/realtime/v1/push/subscriptions/{id}': {
    parameters: [p('id')],
    delete: op('removePushSubscription', TAG, 'Remove one of the caller’s push subscriptions', {
      description: 'Another subject’s id is a 404, as if it did not exist.',
      write: true,
      answers: { 204: null },
    }),
  },
}

/**
 * What the service sends to a subscription's endpoint (OpenAPI 3.1 `webhooks`: a request the
 * service makes, not one it answers). Web Push's standards, through `web-push`: nothing hand-made.
 */
export const pushWebhooks: Record<string, Schema> = {
  pushMessage: {
    post: {
      operationId: 'pushMessage',
      tags: [TAG],
      summary: 'A push, to a subscription’s endpoint (RFC 8030)',
      description:
        'Sent only when the subject had no open realtime connection of the app from the message until ' +
        `${PUSH.graceMs} ms after it (docs/push.md). The body is a PushPayload as JSON (at most ` +
        `${PUSH.payloadBytes} bytes), encrypted for the subscription's keys (\`Content-Encoding: aes128gcm\`, ` +
        'RFC 8291) and signed (`Authorization: vapid t=<JWT>, k=<publicKey>`, RFC 8292: `aud` the endpoint’s ' +
        'origin, `exp` within 24 h, `sub` a mailto: address). A 404 or 410 from the push service removes the subscription.',
      security: [],
      parameters: [
        {
          name: 'TTL',
          in: 'header',
          required: true,
          description: 'Seconds the push service keeps it while the browser is away.',
          schema: integer({ const: PUSH.ttlSeconds }),
        },
        {
          name: 'Urgency',
          in: 'header',
          required: true,
          description: 'RFC 8030 §5.3.',
          schema: string({ const: PUSH.urgency }),
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/octet-stream': {
            schema: string({
              description: 'The encrypted PushPayload.',
              contentMediaType: 'application/json',
              contentSchema: ref('PushPayload'),
            }),
          },
        },
      },
      responses: {
        201: { description: 'The push service took it.' },
        404: { description: 'No such subscription: the service removes it.' },
        410: { description: 'The subscription expired or was revoked: the service removes it.' },
      },
    },
  },
}
