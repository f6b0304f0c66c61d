// The recorder: subscribes to the app's public events as soon as it is made, so the panel opened
// later shows what happened before. Framework-free and DOM-free. Each event costs O(1): it goes
// into a ring buffer; the snapshot (arrays newest first) is built lazily, once per burst, when
// somebody reads it. Every string kept goes through core's `redact`; no token is ever kept.
import { SERVICES, watchRateLimit, type Unsubscribe } from '@tandem/core'
import { watchFrames } from '@tandem/realtime/debug'
import { redact } from '@tandem/core/internal'
import { DEFAULTS } from './defaults.js'
import { errorInfo, frameText } from './redaction.js'
import { createRequestTable } from './request-table.js'
import { createRing } from './ring.js'
import type {
  DevtoolsRecorder,
  DevtoolsRecorderOptions,
  DevtoolsSnapshot,
  DevtoolsSources,
  FrameRow,
  RateLimitRow,
  RateLimitWaitRow,
  TimelineRow,
  TokenRow,
} from './types.js'

type Section = 'requests' | 'frames' | 'timeline' | 'tokens' | 'rateLimits' | 'rateLimitWaits'

/**
 * Records what the sources say, from now on, in bounded rings (DEFAULTS). `stop()` unsubscribes.
 *
 * @example
 * ```ts
 * const recorder = createDevtoolsRecorder({ client, realtime })
 * recorder.subscribe(() => console.log(recorder.getSnapshot().requests[0]))
 * ```
 */
export function createDevtoolsRecorder(
  sources: DevtoolsSources,
  options: DevtoolsRecorderOptions = {},
): DevtoolsRecorder {
  const now = options.now ?? Date.now
  const maxFrameChars = options.maxFrameChars ?? DEFAULTS.maxFrameChars
  const requests = createRequestTable(options.maxRequests ?? DEFAULTS.maxRequests)
  const frames = createRing<FrameRow>(options.maxFrames ?? DEFAULTS.maxFrames)
  const timeline = createRing<TimelineRow>(options.maxTimeline ?? DEFAULTS.maxTimeline)
  const tokens = createRing<TokenRow>(options.maxTokenEvents ?? DEFAULTS.maxTokenEvents)
  const waits = createRing<RateLimitWaitRow>(options.maxRateLimitWaits ?? DEFAULTS.maxRateLimitWaits)
  /** Seen so far, kept or not (the request table counts its calls). */
  const totals = { frames: 0, timeline: 0, tokens: 0, rateLimitWaits: 0 }
  /** A sequence per recorder: every row's stable key. */
  let seq = 0
  const listeners = new Set<() => void>()
  const offs: Unsubscribe[] = []
  const dirty = new Set<Section>()
  let notifyQueued = false

  const rateLimits = new Map(SERVICES.map((service) => [service, watchRateLimit(sources.client ?? NO_CLIENT, service)]))

  let snapshot: DevtoolsSnapshot = {
    requests: [],
    frames: [],
    timeline: [],
    tokens: [],
    rateLimits: readRateLimits(),
    rateLimitWaits: [],
    totals: { ...totals, requests: 0 },
  }

  function readRateLimits(): RateLimitRow[] {
    return [...rateLimits].map(([service, store]) => ({ service, ...store.getSnapshot() }))
  }

  function changed(section: Section): void {
    dirty.add(section)
    if (notifyQueued) return
    notifyQueued = true
    // One notification per burst: a flood of frames is one render, not hundreds.
    queueMicrotask(() => {
      notifyQueued = false
      for (const listener of [...listeners]) listener()
    })
  }

  const { client, realtime, tabs } = sources
  if (client) {
    offs.push(
      client.on('request', (e) => {
        requests.request(e, now())
        changed('requests')
      }),
      client.on('retry', (e) => {
        requests.retry(e, now())
        changed('requests')
      }),
      client.on('rateLimitWait', (e) => {
        requests.waited(e)
        const { callId, service, waitMs, queued, reason } = e
        waits.push({ seq: ++seq, at: now(), callId, service, waitMs, queued, reason })
        totals.rateLimitWaits++
        changed('rateLimitWaits')
      }),
      // Never the token: when it expires is all a tool needs.
      client.auth.on('token', ({ expiresAt, expiresIn }) => {
        tokens.push({ kind: 'token', seq: ++seq, at: now(), expiresAt, expiresIn })
        totals.tokens++
        changed('tokens')
      }),
      client.auth.on('error', (error) => {
        tokens.push({ kind: 'error', seq: ++seq, at: now(), error: errorInfo(error) })
        totals.tokens++
        changed('tokens')
      }),
      ...[...rateLimits.values()].map((store) => store.subscribe(() => changed('rateLimits'))),
    )
  }
  const toTimeline = (row: TimelineRow) => {
    timeline.push(row)
    totals.timeline++
    changed('timeline')
  }
  if (realtime) {
    // The state as found: a recorder made after the first connect says so instead of looking like the start.
    const { state, connectionId } = realtime
    toTimeline({ kind: 'start', seq: ++seq, at: now(), state, connectionId: connectionId && redact(connectionId) })
    offs.push(
      realtime.on('state', (change) =>
        toTimeline({
          kind: 'state',
          seq: ++seq,
          at: now(),
          previous: change.previous,
          current: change.current,
          reason: change.reason === undefined ? undefined : redact(change.reason),
          retryInMs: change.retryInMs,
          error: change.error ? errorInfo(change.error) : undefined,
        }),
      ),
      realtime.on('error', (error) => toTimeline({ kind: 'error', seq: ++seq, at: now(), error: errorInfo(error) })),
      // Frames come through the debug entry: an app that never opens devtools ships no frame parsing.
      watchFrames(realtime, (e) => {
        const { text, truncated } = frameText(e.frame, maxFrameChars)
        frames.push({
          seq: ++seq,
          direction: e.direction,
          type: redact(e.type),
          channel: e.channel === undefined ? undefined : redact(e.channel),
          size: e.size,
          at: e.at,
          text,
          truncated,
        })
        totals.frames++
        changed('frames')
      }),
    )
  }
  if (tabs) {
    offs.push(tabs.on('role', ({ role, leader }) => toTimeline({ kind: 'role', seq: ++seq, at: now(), role, leader })))
  }

  return {
    getSnapshot() {
      if (dirty.size === 0) return snapshot
      const next = { ...snapshot, totals: { ...totals, requests: requests.total } }
      if (dirty.has('requests')) next.requests = requests.rows()
      if (dirty.has('frames')) next.frames = frames.newestFirst()
      if (dirty.has('timeline')) next.timeline = timeline.newestFirst()
      if (dirty.has('tokens')) next.tokens = tokens.newestFirst()
      if (dirty.has('rateLimits')) next.rateLimits = readRateLimits()
      if (dirty.has('rateLimitWaits')) next.rateLimitWaits = waits.newestFirst()
      dirty.clear()
      return (snapshot = next)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    clear() {
      requests.clear()
      frames.clear()
      timeline.clear()
      tokens.clear()
      waits.clear()
      for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] = 0
      for (const section of ['requests', 'frames', 'timeline', 'tokens', 'rateLimitWaits'] as const) changed(section)
    },
    stop() {
      for (const off of offs.splice(0)) off()
    },
  }
}

/** For `watchRateLimit` when there is no client: a source that never says anything. */
const NO_CLIENT = { on: () => () => {} }
