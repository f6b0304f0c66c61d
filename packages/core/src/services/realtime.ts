import type { Client, ServiceClient } from '../base-client.js'
import { createCollection, createPagePromise, type PagePromise } from '../collection.js'
import { ValidationError } from '../errors.js'
import type { Http } from '../http.js'
import {
  CHANNEL_INFO_FIELDS,
  CHANNEL_NAME_RULE,
  HISTORY_MAX,
  HISTORY_MIN,
  MAX_EVENT_NAME,
  MAX_ID,
  MAX_QUERY,
  HISTORY_RESULT_FIELDS,
  PRESENCE_RESULT_FIELDS,
  PUBLISH_RESULT_FIELDS,
  RESOURCE_FIELDS,
  isChannelName,
  type ChannelInfo,
  type ChannelListQuery,
  type HistoryResult,
  type PresenceMember,
  type PublishResult,
  type RealtimeMessage,
} from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import type { CallOptions, WriteOptions } from '../types.js'
import { requireNumber, requireObject, optional, requireString } from '../validate.js'

// Realtime over REST (docs/services/realtime-rest.md): publish, history, presence, channel list.
// The live side (subscribe, presence events) is @tandem/realtime's WebSocket.

export type { ChannelInfo, HistoryResult, PresenceMember, PublishResult, RealtimeMessage }

export interface HistoryOptions extends CallOptions {
  since?: { epoch: string; offset: number }
  limit?: number
}
export type ChannelListParams = ChannelListQuery

export interface RealtimeService {
  /** Stored once per `idempotencyKey` (a repeat returns the first result). */
  publish(channel: string, event: string, data?: unknown, options?: WriteOptions): Promise<PublishResult>
  /** Retained messages after `since` (or the newest `limit`); `complete` false = a gap. */
  history(channel: string, options?: HistoryOptions): Promise<HistoryResult>
  presence(channel: string, options?: CallOptions): Promise<{ members: PresenceMember[] }>
  channels(params?: ChannelListParams, options?: CallOptions): PagePromise<ChannelInfo>
}

const path = (channel: unknown, rest: string) => {
  if (!isChannelName(channel))
    throw new ValidationError('channel', DEV && process.env.NODE_ENV !== 'production' && CHANNEL_NAME_RULE)
  return `/v1/channels/${encodeURIComponent(channel)}/${rest}`
}

/** A list that fails with `error`, as a first page and as any page after it. */
const rejectedPages = (error: Error) =>
  createPagePromise<ChannelInfo>(Promise.reject(error), () => Promise.reject(error))

export function createRealtimeService(http: Http): RealtimeService {
  const service = 'realtime'
  const channels = createCollection<ChannelInfo>(http, service, 'channels', CHANNEL_INFO_FIELDS)
  return {
    async publish(channel, event, data, options = {}) {
      return http({
        ...options,
        service,
        method: 'POST',
        path: path(channel, 'messages'),
        body: { event: requireString(event, 'event', MAX_EVENT_NAME), data },
        shape: PUBLISH_RESULT_FIELDS,
      })
    },
    async history(channel, options) {
      const { since: s, limit, ...call } = options ?? {}
      const since = optional(s, (v) => requireObject(v, 'since'))
      return http({
        ...call,
        service,
        method: 'GET',
        path: path(channel, 'messages'),
        query: {
          sinceEpoch: since && requireString(since.epoch, 'since.epoch', MAX_ID),
          sinceOffset: since && requireNumber(since.offset, 'since.offset', 0, Number.MAX_SAFE_INTEGER, true),
          limit: optional(limit, (v) => requireNumber(v, 'limit', HISTORY_MIN, HISTORY_MAX, true)),
        },
        shape: HISTORY_RESULT_FIELDS,
      })
    },
    async presence(channel, options = {}) {
      return http({
        ...options,
        service,
        method: 'GET',
        path: path(channel, 'presence'),
        shape: PRESENCE_RESULT_FIELDS,
      })
    },
    // The generic collection pages and checks `limit`, `cursor` and the list's shape; `prefix` is ours.
    channels(params = {}, options = {}) {
      const p = params?.prefix
      return p === undefined || (typeof p == 'string' && p.length <= MAX_QUERY)
        ? channels.list(params, options)
        : rejectedPages(
            new ValidationError(
              'prefix',
              DEV && process.env.NODE_ENV !== 'production' && `must be a string of at most ${MAX_QUERY} characters`,
            ),
          )
    },
  }
}

/** The realtime service for a client, with its generic `resources` collection (`@tandem/core/realtime-rest`). */
export function realtimeRest(client: Client): ServiceClient & RealtimeService {
  return {
    resources: createCollection(client.request, 'realtime', 'resources', RESOURCE_FIELDS),
    ...createRealtimeService(client.request),
  }
}
