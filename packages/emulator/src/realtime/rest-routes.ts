// Realtime REST (`/realtime/v1/channels…`): the same hub state as the WebSocket, so a REST publish
// reaches socket subscribers. Handlers are synchronous (see RouteHandler) and throw HttpError.
import { MAX_QUERY } from '@tandem/contract'
import { invalid } from '../validate.js'
import { HttpError } from '../http-errors.js'
import { parseLimit } from '../resource-store.js'
import type { RouteHandler } from '../resource-routes.js'
import type { Route } from '../router.js'
import { channelName, eventName, historyLimit, RtError, type Since } from './frames.js'
import type { Hub } from './hub.js'

/** RtError (shared validators) → the REST error shape. */
function rest<T>(field: string, fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    if (!(err instanceof RtError)) throw err
    if (err.code === 'invalid_channel')
      throw new HttpError(400, 'invalid_channel', err.message, [{ field, message: err.message }])
    if (err.code === 'message_too_large') throw new HttpError(413, 'message_too_large', err.message)
    throw invalid(field, err.message)
  }
}

const channelParam = (params: Record<string, string>) => rest('channel', () => channelName(params.channel))

export function realtimeRoutes(hub: Hub): Route<RouteHandler>[] {
  const publish: RouteHandler = {
    write: true,
    capability: (p) => `realtime:publish:${p.channel ?? ''}`,
    run({ params, body, principal, idempotencyKey }) {
      const channel = channelParam(params)
      if (!body) throw new HttpError(400, 'invalid_body', 'Request body must be a JSON object { event, data }.')
      const event = rest('event', () => eventName(body.event))
      const ack = rest('data', () =>
        hub.publish(principal.app, channel, event, body.data, principal.subject, idempotencyKey),
      )
      return { status: ack.duplicate ? 200 : 201, body: ack, applied: !ack.duplicate }
    },
  }

  const history: RouteHandler = {
    write: false,
    capability: (p) => `realtime:subscribe:${p.channel ?? ''}`,
    run({ params, query, principal }) {
      const channel = hub.ensureChannel(principal.app, channelParam(params))
      const limit = rest('limit', () =>
        historyLimit(query.has('limit') ? integer(query.get('limit'), 'limit') : undefined),
      )
      const { messages, complete } = channel.read(sinceOf(query), limit)
      return { status: 200, body: { epoch: channel.epoch, offset: channel.offset, messages, complete } }
    },
  }

  const presence: RouteHandler = {
    write: false,
    capability: (p) => `realtime:subscribe:${p.channel ?? ''}`,
    run({ params, principal }) {
      const members = [...(hub.channel(principal.app, channelParam(params))?.members.values() ?? [])]
      return { status: 200, body: { members } }
    },
  }

  const list: RouteHandler = {
    write: false,
    capability: () => 'realtime:read',
    run({ query, principal }) {
      const limit = parseLimit(query.get('limit'))
      const prefix = query.get('prefix') ?? ''
      if (prefix.length > MAX_QUERY) throw invalid('prefix', `must be at most ${MAX_QUERY} characters`)
      const after = decodeCursor(query.get('cursor') || null)
      const names = hub
        .channelsOf(principal.app)
        .filter((c) => c.name.startsWith(prefix) && (after === undefined || c.name > after))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      const page = names.slice(0, limit)
      const last = page[page.length - 1]
      return {
        status: 200,
        body: {
          data: page.map((c) => ({
            name: c.name,
            epoch: c.epoch,
            offset: c.offset,
            subscribers: c.subscribers.size,
            members: c.members.size,
          })),
          nextCursor: names.length > limit && last ? Buffer.from(last.name, 'utf8').toString('base64url') : null,
        },
      }
    },
  }

  return [
    { method: 'GET', pattern: '/v1/channels', handler: list },
    { method: 'POST', pattern: '/v1/channels/:channel/messages', handler: publish },
    { method: 'GET', pattern: '/v1/channels/:channel/messages', handler: history },
    { method: 'GET', pattern: '/v1/channels/:channel/presence', handler: presence },
  ]
}

function integer(raw: string | null, field: string): number {
  if (raw === null || !/^\d{1,15}$/.test(raw)) throw invalid(field, 'must be a non-negative integer')
  return Number(raw)
}

function sinceOf(query: URLSearchParams): Since | undefined {
  const epoch = query.get('sinceEpoch')
  const offset = query.get('sinceOffset')
  if (epoch === null && offset === null) return undefined
  if (epoch === null || offset === null || epoch === '' || epoch.length > 200) {
    throw invalid('since', 'sinceEpoch and sinceOffset go together')
  }
  return { epoch, offset: integer(offset, 'sinceOffset') }
}

function decodeCursor(cursor: string | null): string | undefined {
  if (cursor === null) return undefined
  const name = /^[A-Za-z0-9_-]{1,300}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : ''
  if (!name)
    throw new HttpError(400, 'invalid_cursor', 'The cursor is not valid for this list.', [
      { field: 'cursor', message: 'unrecognised cursor' },
    ])
  return name
}
