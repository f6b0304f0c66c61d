// Web Push's REST face on the realtime service (/realtime/v1/push/..., the contract's tag
// `realtime`). Bodies reach here checked against the contract (spec/rest-inputs.ts): an unknown
// field, a bad endpoint or a key of the wrong length was refused 400 before any of this runs.
import {
  isCustomerScope,
  type PushKind,
  type PushSubscriptionCreate,
  type PushSubscriptionRenew,
} from '@tandem/contract'
import type { Principal } from '../auth.js'
import { HttpError } from '../http-errors.js'
import type { RouteHandler } from '../resource-routes.js'
import type { Route } from '../router.js'
import { toRecord, type SubscriptionStore } from './subscriptions.js'

/**
 * Agents (a token that reads support) and customers (their own conversations) alike: a customer
 * passes as `customers`, an agent on `support:read`, anyone else is refused 403 by the pipeline.
 */
const who = { capability: () => 'support:read', customers: true }

const notFound = () => new HttpError(404, 'push_subscription_not_found', 'No such push subscription.')

/** Whose pushes a caller's subscription gets; the app's raw key has no one to notify. */
function kindOf(principal: Principal): PushKind {
  if (principal.via !== 'token')
    throw new HttpError(
      403,
      'push_not_allowed',
      "Push subscriptions belong to a person: an agent's or a customer's token, not the app's key.",
    )
  return isCustomerScope(principal.scope) ? 'customer' : 'agent'
}

export function pushRoutes(store: SubscriptionStore, publicKey: () => string): Route<RouteHandler>[] {
  const key: RouteHandler = {
    ...who,
    write: false,
    run: () => ({ status: 200, body: { publicKey: publicKey() } }),
  }

  const list: RouteHandler = {
    ...who,
    write: false,
    run: ({ principal }) => {
      kindOf(principal)
      const data = store.list(principal.app, principal.subject).map(toRecord)
      return { status: 200, body: { data, nextCursor: null } }
    },
  }

  const register: RouteHandler = {
    ...who,
    write: true,
    run: ({ principal, body }) => {
      const kind = kindOf(principal)
      const b = body as PushSubscriptionCreate
      const mailboxIds = b.mailboxIds ?? null
      if (kind === 'customer' && mailboxIds !== null)
        throw new HttpError(400, 'invalid_parameter', 'Invalid mailboxIds: a customer hears its own conversations.', [
          { field: 'mailboxIds', message: 'is for agents only' },
        ])
      const { subscription, created } = store.register({
        app: principal.app,
        subject: principal.subject,
        kind,
        endpoint: b.endpoint,
        keys: { p256dh: b.keys.p256dh, auth: b.keys.auth },
        mailboxIds,
        url: b.url ?? null,
        expirationTime: b.expirationTime ?? null,
      })
      return { status: created ? 201 : 200, body: toRecord(subscription), applied: true }
    },
  }

  // Token-free: a service worker's `pushsubscriptionchange` has no tab, so no token. The old
  // subscription's auth secret is the proof; a wrong one and none at all get the same 404.
  const renew: RouteHandler = {
    public: true,
    write: true,
    run: ({ body }) => {
      const b = body as PushSubscriptionRenew
      const next = b.subscription
      const [moved] = store.renew(b.oldEndpoint, b.auth, {
        endpoint: next.endpoint,
        keys: { p256dh: next.keys.p256dh, auth: next.keys.auth },
        expirationTime: next.expirationTime ?? null,
      })
      if (!moved) throw notFound()
      return { status: 200, body: toRecord(moved), applied: true }
    },
  }

  const remove: RouteHandler = {
    ...who,
    write: true,
    run: ({ principal, params }) => {
      kindOf(principal)
      const found = store.get(principal.app, principal.subject, params.id ?? '')
      if (!found) throw notFound()
      store.remove(found.id)
      return { status: 204, applied: true }
    },
  }

  return [
    { method: 'GET', pattern: '/v1/push/key', handler: key },
    { method: 'GET', pattern: '/v1/push/subscriptions', handler: list },
    { method: 'POST', pattern: '/v1/push/subscriptions', handler: register },
    { method: 'POST', pattern: '/v1/push/subscriptions/renew', handler: renew },
    { method: 'DELETE', pattern: '/v1/push/subscriptions/:id', handler: remove },
  ]
}
