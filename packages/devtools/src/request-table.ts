// The recorder's requests: one row per call (`callId`), its attempts and the retries between
// them, and the rate-limit waits before them. O(1) per event: a ring of boxes and a Map from
// callId to box; a row is a new object when it changes (its attempts array too, a handful at most),
// so a snapshot can hand out rows as they are.
import type { RateLimitWaitEvent, RequestEvent, RetryEvent } from '@tandem/core'
import { redact } from '@tandem/core/internal'
import { createRing } from './ring.js'
import type { RequestAttempt, RequestRow } from './types.js'

type Wait = RequestRow['rateLimitWaits'][number]

export interface RequestTable {
  request(event: RequestEvent, at: number): void
  retry(event: RetryEvent, at: number): void
  /** A wait comes before the call's first event: it is held until then (or until pushed out). */
  waited(event: RateLimitWaitEvent): void
  /** Newest call first. */
  rows(): RequestRow[]
  /** Calls seen, kept or not. */
  readonly total: number
  clear(): void
}

interface Box {
  row: RequestRow
}

const text = (value: string | undefined): string | undefined => (value === undefined ? undefined : redact(value))

export function createRequestTable(capacity: number): RequestTable {
  const ring = createRing<Box>(capacity)
  const byCall = new Map<number, Box>()
  /** Waits of calls with no row yet, oldest call first; as many calls as the ring holds at most. */
  const pending = new Map<number, Wait[]>()
  let total = 0

  function boxOf(event: RequestEvent, at: number): Box {
    const known = byCall.get(event.callId)
    if (known) return known
    const waits = pending.get(event.callId) ?? []
    pending.delete(event.callId)
    const waited = waits.reduce((sum, w) => sum + w.waitMs, 0)
    const box: Box = {
      row: {
        callId: event.callId,
        service: event.service,
        method: event.method,
        path: redact(`/${event.service}${event.path}`),
        state: 'done',
        status: undefined,
        errorCode: undefined,
        requestId: undefined,
        attempts: [],
        rateLimitWaits: waits,
        startedAt: at - event.durationMs - waited,
        durationMs: 0,
      },
    }
    total++
    const out = ring.push(box)
    if (out) byCall.delete(out.row.callId)
    byCall.set(event.callId, box)
    return box
  }

  const attemptOf = (event: RequestEvent): RequestAttempt => ({
    attempt: event.attempt,
    status: event.status,
    errorCode: text(event.errorCode),
    requestId: text(event.requestId),
    durationMs: event.durationMs,
    retry: undefined,
  })

  return {
    request(event, at) {
      const box = boxOf(event, at)
      const attempt = attemptOf(event)
      const { row } = box
      box.row = {
        ...row,
        state: 'done',
        status: attempt.status,
        errorCode: attempt.errorCode,
        requestId: attempt.requestId ?? row.requestId,
        attempts: [...row.attempts, attempt],
        durationMs: at - row.startedAt,
      }
    },
    retry(event, at) {
      const box = boxOf(event, at)
      const { row } = box
      const retry = { reason: redact(event.reason), delayMs: event.delayMs }
      const last = row.attempts[row.attempts.length - 1]
      // The attempt's own `request` event came first; without one (a listener added mid-call), the retry says it all.
      const attempts =
        last && last.attempt === event.attempt && !last.retry
          ? [...row.attempts.slice(0, -1), { ...last, retry }]
          : [...row.attempts, { ...attemptOf(event), retry }]
      box.row = { ...row, state: 'retrying', attempts, durationMs: at - row.startedAt }
    },
    waited(event) {
      const wait: Wait = { waitMs: event.waitMs, reason: event.reason }
      const box = byCall.get(event.callId)
      if (box) {
        box.row = { ...box.row, rateLimitWaits: [...box.row.rateLimitWaits, wait] }
        return
      }
      const waits = pending.get(event.callId)
      if (waits) return void waits.push(wait)
      pending.set(event.callId, [wait])
      // A call aborted while it waited has no row to join: forget the oldest such.
      if (pending.size > capacity) pending.delete(pending.keys().next().value!)
    },
    rows: () => ring.newestFirst().map((box) => box.row),
    get total() {
      return total
    },
    clear() {
      ring.clear()
      byCall.clear()
      pending.clear()
      total = 0
    },
  }
}
