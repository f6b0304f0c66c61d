// Realtime REST (`/realtime/v1/channels…`): the same hub state as the WebSocket, so a REST publish
// reaches socket subscribers. Handlers are synchronous (see RouteHandler) and throw HttpError.
import { HISTORY_DEFAULT } from '@tandem/contract'
import { invalid } from '../validate.js'
import { HttpError } from '../http-errors.js'
import { parseLimit } from '../resource-store.js'
import type { RouteHandler } from '../resource-routes.js'
import type { Route } from '../router.js'
import { RtError, type Since } from './frames.js'
import type { Hub } from './hub.js'

// The channel, event, limit and prefix already matched the contract (spec/rest-inputs.ts).
const channelParam = (params: Record<string, string>) => params.channel ?? ''

export function realtimeRoutes(hub: Hub): Route<RouteHandler>[] {
  const publish: RouteHandler = {
    write: true,
    capability: (p) => `realtime:publish:${p.channel ?? ''}`,
    run({ params, body, principal, idempotencyKey }) {
      const { event, data } = body as { event: string; data?: unknown }
      try {
        const ack = hub.publish(principal.app, channelParam(params), event, data, principal.subject, idempotencyKey)
        return { status: ack.duplicate ? 200 : 201, body: ack, applied: !ack.duplicate }
      } catch (err) {
        if (err instanceof RtError && err.code === 'message_too_large')
          throw new HttpError(413, 'message_too_large', err.message)
        throw err
      }
    },
  }

  const history: RouteHandler = {
    write: false,
    capability: (p) => `realtime:subscribe:${p.channel ?? ''}`,
    run({ params, query, principal }) {
      const channel = hub.ensureChannel(principal.app, channelParam(params))
      const limit = query.has('limit') ? Number(query.get('limit')) : HISTORY_DEFAULT
      const { messages, complete } = channel.read(sinceOf(query), limit)
      hub.dropIfIdle(channel) // a read of a channel nobody uses leaves nothing behind
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

function sinceOf(query: URLSearchParams): Since | undefined {
  const epoch = query.get('sinceEpoch')
  const offset = query.get('sinceOffset')
  if (epoch === null && offset === null) return undefined
  // Together or not at all: a rule across two parameters, which the contract's schemas cannot state.
  if (epoch === null || offset === null) throw invalid('since', 'sinceEpoch and sinceOffset go together')
  return { epoch, offset: Number(offset) }
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
