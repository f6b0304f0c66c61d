import { createCollection, createPagePromise, type ListParams, type PagePromise } from '../collection.js'
import { ValidationError } from '../errors.js'
import type { Http } from '../http.js'
import type { CallOptions, WriteOptions } from '../types.js'
import { num, obj, opt, str } from '../validate.js'

// Realtime over REST (docs/services/realtime-rest.md): publish, history, presence, channel list.
// The live side (subscribe, presence events) is @tandem/realtime's WebSocket.

export interface PublishResult {
  offset: number
  epoch: string
  messageId: string
  duplicate: boolean
}
export interface RealtimeMessage {
  channel: string
  event: string
  data: unknown
  offset: number
  epoch: string
  messageId: string
  clientId: string
  ts: number
}
export interface HistoryResult {
  epoch: string
  offset: number
  messages: RealtimeMessage[]
  complete: boolean
}
export interface PresenceMember {
  clientId: string
  connectionId: string
  data: unknown
}
export interface ChannelInfo {
  name: string
  epoch: string
  offset: number
  subscribers: number
  members: number
}
export interface HistoryOptions extends CallOptions {
  since?: { epoch: string; offset: number }
  limit?: number
}
export interface ChannelListParams {
  prefix?: string
  limit?: number
  cursor?: string
}

export interface RealtimeService {
  /** Stored once per `idempotencyKey` (a repeat returns the first result). */
  publish(channel: string, event: string, data?: unknown, options?: WriteOptions): Promise<PublishResult>
  /** Retained messages after `since` (or the newest `limit`); `complete` false = a gap. */
  history(channel: string, options?: HistoryOptions): Promise<HistoryResult>
  presence(channel: string, options?: CallOptions): Promise<{ members: PresenceMember[] }>
  channels(params?: ChannelListParams, options?: CallOptions): PagePromise<ChannelInfo>
}

/** As the service: `[A-Za-z0-9_:.@-]{1,200}`, not `.` or `..`. */
const path = (channel: unknown, rest: string) => {
  if (typeof channel !== 'string' || !/^(?!\.\.?$)[\w:.@-]{1,200}$/.test(channel)) {
    throw new ValidationError('channel', 'must be 1-200 characters of A-Z a-z 0-9 _ : . @ -')
  }
  return `/v1/channels/${encodeURIComponent(channel)}/${rest}`
}

/** A list that fails with `error`, as a first page and as any page after it. */
const rejectedPages = (error: Error) =>
  createPagePromise<ChannelInfo>(Promise.reject(error), () => Promise.reject(error))

export function createRealtimeService(http: Http): RealtimeService {
  const service = 'realtime'
  const channels = createCollection<ChannelInfo>(http, service, 'channels')
  return {
    async publish(channel, event, data, options = {}) {
      return http({
        ...options,
        service,
        method: 'POST',
        path: path(channel, 'messages'),
        body: { event: str(event, 'event', 200), data },
      })
    },
    async history(channel, options) {
      const { since: s, limit, ...call } = options ?? {}
      const since = opt(s, (v) => obj(v, 'since'))
      return http({
        ...call,
        service,
        method: 'GET',
        path: path(channel, 'messages'),
        query: {
          sinceEpoch: since && str(since.epoch, 'since.epoch', 200),
          sinceOffset: since && num(since.offset, 'since.offset', 0, Number.MAX_SAFE_INTEGER, true),
          limit: opt(limit, (v) => num(v, 'limit', 1, 1000, true)),
        },
      })
    },
    async presence(channel, options = {}) {
      return http({ ...options, service, method: 'GET', path: path(channel, 'presence') })
    },
    // The generic collection pages and checks `limit`, `cursor` and the list's shape; `prefix` is ours.
    channels(params = {}, options = {}) {
      const p = params?.prefix
      return p === undefined || (typeof p == 'string' && p.length <= 200)
        ? channels.list(params as ListParams, options)
        : rejectedPages(new ValidationError('prefix', 'must be a string of at most 200 characters'))
    },
  }
}
