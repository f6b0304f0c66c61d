import { createStore, type TandemClient } from '@tandem/core'
import { redact } from '@tandem/core/internal' // the SDK's own token redaction, for the log panel
import type { Realtime } from '@tandem/realtime'
import type { TabShare } from '@tandem/realtime/tabs'

export type LogKind = 'request' | 'retry' | 'rate-limit' | 'token' | 'realtime' | 'persist' | 'error' | 'app'

export interface LogEntry {
  id: number
  at: number
  kind: LogKind
  text: string
  /** Request id, when the service gave one. */
  requestId?: string
  /** For requests: HTTP status or error code, to colour the line. */
  ok?: boolean
}

export interface EventLog {
  subscribe(listener: () => void): () => void
  getSnapshot(): readonly LogEntry[]
  add(kind: LogKind, text: string, extra?: Pick<LogEntry, 'requestId' | 'ok'>): void
  clear(): void
  /** Wires the SDK's debug events. Returns the unsubscribe. */
  attach(client: TandemClient, realtime: Realtime): () => void
  /** Says which tab leads the user's shared connection, and when that changes. */
  attachTabs(tabs: TabShare): () => void
}

/** A tab id as the log shows it: short enough to tell tabs apart. */
const tab = (id: string) => `tab …${id.slice(-4)}`

const MAX = 300

/** A wait as a person says it: "3 s", "0.4 s". */
const seconds = (ms: number) => `${ms >= 1000 ? Math.round(ms / 1000) : (ms / 1000).toFixed(1)} s`

/**
 * A store of SDK debug events for the Event log panel. Every text goes through core's `redact`
 * (anything JWT-, bearer- or key-shaped becomes `[redacted]`), although the events themselves
 * carry paths without query strings and never a token.
 */
export function createEventLog(): EventLog {
  const store = createStore<readonly LogEntry[]>([]) // newest first
  let next = 1

  const add: EventLog['add'] = (kind, text, extra) =>
    store.set((entries) =>
      [{ id: next++, at: Date.now(), kind, text: redact(text), ...extra }, ...entries].slice(0, MAX),
    )

  return {
    subscribe: store.subscribe,
    getSnapshot: store.getSnapshot,
    add,
    clear: () => store.set([]),
    attachTabs: (tabs) =>
      tabs.on('role', ({ role, leader }) =>
        add(
          'realtime',
          role === 'leader'
            ? `this tab (${tab(tabs.tabId)}) leads: it holds the one socket of every tab of this user`
            : role === 'follower' && leader
              ? `${tab(leader)} leads: this tab (${tab(tabs.tabId)}) shares its socket`
              : `tabs: this tab is ${role}`,
        ),
      ),
    attach(client, realtime) {
      const offs = [
        client.on('request', (e) => {
          const outcome = e.status ?? e.errorCode ?? 'failed'
          const attempt = e.attempt > 1 ? ` (attempt ${e.attempt})` : ''
          add(
            'request',
            `${e.method} /${e.service}${e.path} → ${outcome} in ${Math.round(e.durationMs)} ms${attempt}`,
            {
              ...(e.requestId ? { requestId: e.requestId } : {}),
              // An aborted request (a refetch replaced it, a component went away) is not a failure.
              ok: e.errorCode === 'aborted' || (e.status !== undefined && e.status < 400),
            },
          )
        }),
        client.on('retry', (e) =>
          add(
            'retry',
            // A 429 is the service's own wait (its Retry-After), not something the client chose.
            e.status === 429
              ? `${e.service}: the service answered 429, waiting ${seconds(e.delayMs)} (Retry-After) before retrying ${e.method} /${e.service}${e.path}`
              : `retry ${e.method} /${e.service}${e.path} in ${Math.round(e.delayMs)} ms: ${e.reason}`,
            e.requestId ? { requestId: e.requestId } : {},
          ),
        ),
        client.on('rateLimitWait', (e) =>
          add(
            'rate-limit',
            e.reason === 'retry-after'
              ? `${e.service}: waited ${seconds(e.waitMs)} for the service's Retry-After (it had answered 429), ${e.queued} queued`
              : `${e.service}: waited ${Math.round(e.waitMs)} ms for the client-side rate-limit bucket, ${e.queued} queued`,
          ),
        ),
        // The token itself is never shown: only that one arrived and how long it lives.
        client.auth.on('token', (t) => add('token', `new token from /api/tandem-token, expires in ${t.expiresIn} s`)),
        client.auth.on('error', (e) => add('error', `token endpoint: ${e.code}: ${e.message}`)),
        realtime.on('state', (s) => {
          const why = s.reason ? ` (${s.reason})` : ''
          const retry = s.retryInMs !== undefined ? `, next attempt in ${Math.round(s.retryInMs)} ms` : ''
          const id = s.current === 'connected' && realtime.connectionId ? ` as ${realtime.connectionId}` : ''
          add('realtime', `${s.previous} → ${s.current}${why}${id}${retry}`)
        }),
        realtime.on('error', (e) =>
          add('error', `realtime ${e.code}: ${e.message}`, e.requestId ? { requestId: e.requestId } : {}),
        ),
      ]
      return () => offs.forEach((off) => off())
    },
  }
}
