import type { Page } from '../collection.js'
import type { TandemError } from '../errors.js'
import { asTandemError } from '../as-tandem-error.js'
import { patchItem, patchList } from './patch.js'
import { idOf, replaceEqualDeep } from './structural-sharing.js'
import type { CacheEvent, CacheStatus, ListData } from './types.js'

// Every change to an entry's state is one of these actions, applied by `reduce` (as TanStack
// Query's `#dispatch`): the entry and the cache say what happened, this file alone says what it does.

export interface EntryState {
  status: CacheStatus
  data: unknown
  error: TandemError | null
  fetching: false | 'all' | 'next'
  dataUpdatedAt: number
  invalidated: boolean
  /** Fresh until at least this time, whatever staleTime says (set by hydrate). */
  freshUntil: number
  liveError: TandemError | null
}

export type EntryAction =
  /** A fetch starts: every loaded page (or the item, the call), or the page after the last. */
  | { type: 'fetch'; next: boolean }
  /** Every page (or the item, the call) came back at `at`. */
  | { type: 'success'; data: unknown; at: number }
  /** The page after the last came back. */
  | { type: 'page'; page: Page<unknown> }
  | { type: 'error'; error: unknown }
  /** The fetch in flight was aborted (nobody watches any more, the cache was cleared). */
  | { type: 'cancel' }
  | { type: 'invalidate' }
  /** A realtime event patches the data; `id` is an item entry's, undefined for a list. */
  | { type: 'live'; event: CacheEvent<unknown>; id: string | undefined }
  /** Why the entry cannot stay live, or null once it is live again. */
  | { type: 'liveError'; error: TandemError | null }
  /** `setData`: the app's update, counted as fetched at `at`. */
  | { type: 'optimistic'; data: unknown; at: number }
  /** Back to the state before an optimistic update; what is fetching, and the live error, stay as they are now. */
  | { type: 'rollback'; to: EntryState }
  /** `initialData`, for an entry with no data yet. */
  | { type: 'seed'; data: unknown; at: number }
  /** Data from the server's HTML (`hydrate`), unless what is here is newer. */
  | { type: 'hydrate'; data: unknown; at: number; freshUntil: number }

export const INITIAL: EntryState = {
  status: 'pending',
  data: undefined,
  error: null,
  fetching: false,
  dataUpdatedAt: 0,
  invalidated: false,
  freshUntil: 0,
  liveError: null,
}

/** The state after `a`; `s` itself when nothing changed (the entry then notifies nobody). */
export function reduce(s: EntryState, a: EntryAction): EntryState {
  switch (a.type) {
    case 'fetch':
      return { ...s, fetching: a.next ? 'next' : 'all' }
    case 'success':
      return { ...success(s, a.data, a.at), fetching: false, freshUntil: 0 }
    case 'page': {
      const pages = (s.data as ListData<unknown> | undefined)?.pages ?? []
      // A live list may already show an item of this page (moved up by an event): once is enough.
      const shown = new Set(pages.flatMap((p) => p.data.map(idOf)))
      const page = { ...a.page, data: a.page.data.filter((x) => !shown.has(idOf(x))) }
      return { ...s, data: { pages: [...pages, page] }, fetching: false }
    }
    case 'error':
      return {
        ...s,
        status: 'error',
        // The client's errors are TandemErrors already; a call query's `fn` may throw anything.
        error: asTandemError(a.error, 'query_failed'),
        fetching: false,
      }
    case 'cancel':
      return { ...s, fetching: false }
    case 'invalidate':
      return { ...s, invalidated: true }
    case 'live': {
      if (s.data === undefined) return s
      const data =
        a.id === undefined ? patchList(s.data as ListData<unknown>, a.event) : patchItem(a.id, s.data, a.event)
      return data === s.data ? s : { ...s, data }
    }
    case 'liveError':
      return s.liveError === a.error ? s : { ...s, liveError: a.error }
    case 'optimistic':
      return success(s, a.data, a.at)
    case 'rollback':
      return { ...a.to, fetching: s.fetching, liveError: s.liveError }
    case 'seed':
      return s.data === undefined ? { ...s, status: 'success', data: a.data, error: null, dataUpdatedAt: a.at } : s
    case 'hydrate':
      // Never replace newer data (a client fetch that beat the HTML).
      return s.status === 'success' && s.dataUpdatedAt > a.at
        ? s
        : { ...success(s, a.data, a.at), freshUntil: a.freshUntil }
  }
}

/** Data that is now the entry's truth: fetched, set by the app, or hydrated. */
const success = (s: EntryState, data: unknown, at: number): EntryState => ({
  ...s,
  status: 'success',
  data: replaceEqualDeep(s.data, data),
  error: null,
  dataUpdatedAt: at,
  invalidated: false,
})
