import { describe, expect, it } from 'vitest'
import type { Page } from '../../collection.js'
import { INITIAL, reduce, type EntryAction, type EntryState } from '../../cache/entry-actions.js'
import { NetworkError, RealtimeError, TandemError } from '../../errors.js'

// Every action from representative states, to the state it must give. A row whose `to` is its
// `from` must return that very object: the entry then notifies nobody.

type Item = { id: string; name: string }
const page = (ids: string[], nextCursor: string | null = null): Page<Item> => ({
  data: ids.map((id) => ({ id, name: `n${id}` })),
  nextCursor,
})

const boom = new NetworkError('boom', { code: 'network_error' })
const offline = new RealtimeError('offline', { code: 'forbidden' })
const PENDING = INITIAL
const LOADING: EntryState = { ...INITIAL, fetching: 'all' }
const LOADED: EntryState = {
  ...INITIAL,
  status: 'success',
  data: { pages: [page(['a', 'b'], 'c1')] },
  dataUpdatedAt: 1_000,
}
const MORE: EntryState = { ...LOADED, fetching: 'next' }
const STALE: EntryState = { ...LOADED, invalidated: true, freshUntil: 5_000, fetching: 'all' }
const FAILED: EntryState = { ...LOADED, status: 'error', error: boom, dataUpdatedAt: 3_000 }
const ITEM: EntryState = { ...LOADED, data: { id: 'a', name: 'na' } }
const NOT_LIVE: EntryState = { ...LOADED, liveError: offline }
const FETCHED_AT = 2_000

interface Row {
  name: string
  from: EntryState
  action: EntryAction
  to: EntryState
}

const ROWS: Row[] = [
  { name: 'fetch: all pages', from: PENDING, action: { type: 'fetch', next: false }, to: LOADING },
  { name: 'fetch: the next page', from: LOADED, action: { type: 'fetch', next: true }, to: MORE },
  {
    name: 'success: the first answer',
    from: LOADING,
    action: { type: 'success', data: { pages: [page(['a'])] }, at: FETCHED_AT },
    to: { ...INITIAL, status: 'success', data: { pages: [page(['a'])] }, dataUpdatedAt: FETCHED_AT },
  },
  {
    name: 'success: clears invalidated, freshUntil and a previous error',
    from: { ...STALE, status: 'error', error: boom },
    action: { type: 'success', data: 'new', at: FETCHED_AT },
    to: { ...LOADED, data: 'new', dataUpdatedAt: FETCHED_AT },
  },
  {
    name: 'page: appended, minus items already shown (moved up by an event)',
    from: MORE,
    action: { type: 'page', page: page(['b', 'c'], 'c2') },
    to: { ...LOADED, data: { pages: [page(['a', 'b'], 'c1'), page(['c'], 'c2')] } },
  },
  {
    name: 'page: on no data, the first page',
    from: { ...PENDING, fetching: 'next' },
    action: { type: 'page', page: page(['a']) },
    to: { ...PENDING, data: { pages: [page(['a'])] } },
  },
  {
    name: 'error: keeps the last good data',
    from: { ...LOADED, fetching: 'all' },
    action: { type: 'error', error: boom },
    to: { ...LOADED, status: 'error', error: boom },
  },
  {
    name: 'error: anything else thrown (by a call query’s fn) becomes a TandemError query_failed',
    from: LOADING,
    action: { type: 'error', error: 'text' },
    to: { ...PENDING, status: 'error', error: new TandemError('text', { code: 'query_failed', cause: 'text' }) },
  },
  {
    name: 'cancel: nothing fetching, all else kept',
    from: STALE,
    action: { type: 'cancel' },
    to: { ...STALE, fetching: false },
  },
  { name: 'invalidate', from: LOADED, action: { type: 'invalidate' }, to: { ...LOADED, invalidated: true } },
  {
    name: 'live: no data yet, nothing to patch',
    from: LOADING,
    action: { type: 'live', event: { type: 'deleted', id: 'a' }, id: undefined },
    to: LOADING,
  },
  {
    name: 'live: created goes first in a list',
    from: LOADED,
    action: { type: 'live', event: { type: 'created', item: { id: 'z', name: 'nz' } }, id: undefined },
    to: {
      ...LOADED,
      data: { pages: [{ ...page(['a', 'b'], 'c1'), data: [{ id: 'z', name: 'nz' }, ...page(['a', 'b']).data] }] },
    },
  },
  {
    name: 'live: an event for no item of the list',
    from: LOADED,
    action: { type: 'live', event: { type: 'deleted', id: 'x' }, id: undefined },
    to: LOADED,
  },
  {
    name: 'live: updated item',
    from: ITEM,
    action: { type: 'live', event: { type: 'updated', item: { id: 'a', name: 'renamed' } }, id: 'a' },
    to: { ...ITEM, data: { id: 'a', name: 'renamed' } },
  },
  {
    name: 'live: deleted item is undefined data, still a success',
    from: ITEM,
    action: { type: 'live', event: { type: 'deleted', id: 'a' }, id: 'a' },
    to: { ...ITEM, data: undefined },
  },
  { name: 'liveError: set', from: LOADED, action: { type: 'liveError', error: offline }, to: NOT_LIVE },
  {
    name: 'liveError: the same one again',
    from: NOT_LIVE,
    action: { type: 'liveError', error: offline },
    to: NOT_LIVE,
  },
  { name: 'liveError: live again', from: NOT_LIVE, action: { type: 'liveError', error: null }, to: LOADED },
  {
    name: 'optimistic: the new data, counted as fetched; a fetch in flight and freshUntil stay',
    from: { ...STALE, status: 'error', error: boom },
    action: { type: 'optimistic', data: 'mine', at: FETCHED_AT },
    to: { ...STALE, data: 'mine', dataUpdatedAt: FETCHED_AT, invalidated: false },
  },
  {
    name: 'rollback: the earlier state, with what fetches and the live error as they are now',
    from: { ...NOT_LIVE, data: 'mine', dataUpdatedAt: FETCHED_AT, fetching: 'all' },
    action: { type: 'rollback', to: { ...FAILED, invalidated: true } },
    to: { ...FAILED, invalidated: true, fetching: 'all', liveError: offline },
  },
  {
    name: 'seed: initial data on an entry without data (invalidated stays)',
    from: { ...LOADING, invalidated: true },
    action: { type: 'seed', data: 'initial', at: FETCHED_AT },
    to: { ...LOADING, invalidated: true, status: 'success', data: 'initial', dataUpdatedAt: FETCHED_AT },
  },
  {
    name: 'seed: an entry with data keeps it',
    from: LOADED,
    action: { type: 'seed', data: 'initial', at: 1 },
    to: LOADED,
  },
  {
    name: 'hydrate: the server’s data, fresh until freshUntil',
    from: { ...PENDING, invalidated: true },
    action: { type: 'hydrate', data: 'html', at: 500, freshUntil: 9_000 },
    to: { ...PENDING, status: 'success', data: 'html', dataUpdatedAt: 500, freshUntil: 9_000 },
  },
  {
    name: 'hydrate: older than what is here, ignored',
    from: LOADED,
    action: { type: 'hydrate', data: 'html', at: 500, freshUntil: 9_000 },
    to: LOADED,
  },
  {
    name: 'hydrate: over an error, however recent',
    from: FAILED,
    action: { type: 'hydrate', data: 'html', at: 500, freshUntil: 9_000 },
    to: { ...LOADED, data: 'html', dataUpdatedAt: 500, freshUntil: 9_000 },
  },
]

/** Every action type; the compiler fails when one is added without being named here. */
const TYPES: Record<EntryAction['type'], true> = {
  fetch: true,
  success: true,
  page: true,
  error: true,
  cancel: true,
  invalidate: true,
  live: true,
  liveError: true,
  optimistic: true,
  rollback: true,
  seed: true,
  hydrate: true,
}

/** Frozen all the way down, so a reducer that writes into its input throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    Object.values(value).forEach(deepFreeze)
  }
  return value
}

describe('entry actions (reduce)', () => {
  it.each(ROWS)('$name', ({ from, action, to }) => {
    // A copy of the state (structuredClone would turn its TandemErrors into plain Errors: they are kept).
    const copy = {
      ...structuredClone({ ...from, error: null, liveError: null }),
      error: from.error,
      liveError: from.liveError,
    }
    const next = reduce(deepFreeze(copy), deepFreeze(action))
    if (to === from) expect(reduce(from, action)).toBe(from)
    else expect(next).toEqual(to)
  })

  it('an error is a TandemError with a code: the client’s as it is, anything else wrapped, what was thrown its cause', () => {
    expect(reduce(LOADING, { type: 'error', error: boom }).error).toBe(boom)
    const mine = new RangeError('my own bug')
    const wrapped = reduce(LOADING, { type: 'error', error: mine }).error
    expect(wrapped).toBeInstanceOf(TandemError)
    expect(wrapped).toMatchObject({ name: 'TandemError', code: 'query_failed', message: 'my own bug', cause: mine })
  })

  it('the table has every action', () => {
    expect(new Set(ROWS.map((r) => r.action.type))).toEqual(new Set(Object.keys(TYPES)))
  })

  it('data equal to what is there keeps its references (success, optimistic, hydrate)', () => {
    for (const type of ['success', 'optimistic', 'hydrate'] as const) {
      const next = reduce(LOADED, { type, data: structuredClone(LOADED.data), at: 9_000, freshUntil: 0 })
      expect(next.data, type).toBe(LOADED.data)
      expect(next.dataUpdatedAt, type).toBe(9_000)
    }
  })
})
