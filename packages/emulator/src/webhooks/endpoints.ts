// Validating and matching webhook endpoints.
import { randomBytes } from 'node:crypto'
import { WEBHOOK_DEFAULTS } from './defaults.js'
import type { WebhookEndpoint, WebhookEndpointOptions } from './types.js'

export interface EndpointContext {
  defaultAppId: string
  /** When known, an endpoint for any other app is refused. */
  appIds: ReadonlySet<string> | undefined
}

export function randomId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`
}

/** Checks register() options; a misconfigured test fails here, not silently at delivery. */
export function resolveEndpoint(
  o: WebhookEndpointOptions,
  ctx: EndpointContext,
  source: WebhookEndpoint['source'],
): WebhookEndpoint {
  if (typeof o !== 'object' || o === null) throw new TypeError('a webhook endpoint needs { url }')
  if (typeof o.url !== 'string') throw new TypeError('webhook url must be a string')
  let url: URL
  try {
    url = new URL(o.url)
  } catch {
    throw new TypeError('webhook url must be an absolute http(s) URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('webhook url must be http: or https:')
  // Credentials in a URL would end up in the delivery log; fetch refuses them anyway.
  if (url.username !== '' || url.password !== '') throw new TypeError('webhook url must not contain credentials')

  const appId = o.appId ?? ctx.defaultAppId
  if (typeof appId !== 'string' || appId === '') throw new TypeError('webhook appId must be a non-empty string')
  if (ctx.appIds && !ctx.appIds.has(appId)) throw new TypeError(`unknown appId ${appId}`)

  const events = o.events ?? ['*']
  if (!Array.isArray(events) || events.length === 0 || !events.every((e) => typeof e === 'string' && e !== '')) {
    throw new TypeError('webhook events must be a non-empty array of event types')
  }
  const secret = o.secret ?? randomId(WEBHOOK_DEFAULTS.secretPrefix, 24)
  if (typeof secret !== 'string' || secret === '') throw new TypeError('webhook secret must be a non-empty string')

  return {
    id: randomId(WEBHOOK_DEFAULTS.endpointIdPrefix, 8),
    url: url.href,
    appId,
    events: [...events],
    secret,
    source,
  }
}

/** Exact type, `'*'`, or a `'prefix.*'` filter. */
export function subscribes(endpoint: WebhookEndpoint, appId: string, type: string): boolean {
  if (endpoint.appId !== appId) return false
  return endpoint.events.some((e) => e === '*' || e === type || (e.endsWith('.*') && type.startsWith(e.slice(0, -1))))
}
