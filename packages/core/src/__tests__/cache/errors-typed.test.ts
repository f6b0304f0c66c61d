import { describe, expect, it, vi } from 'vitest'
import {
  TandemError,
  ValidationError,
  bindLiveResources,
  callQuery,
  createMutation,
  listQuery,
  type LiveSource,
} from '../../index.js'
import type { LiveState } from '../../cache/live.js'
import { setup } from '../helpers.js'

// A snapshot's `error` and `liveError` are typed `TandemError | null` (so `.code` compiles, as
// docs/react.md and docs/cache.md describe them by code): what reaches them that is not one, the
// app's own function's throw or a live source's failure, is wrapped, the thrown value its `cause`
// (issue 45, row 4).

describe('errors in the cache are TandemErrors', () => {
  it('a call query whose fn throws its own error: error is TandemError query_failed, the throw its cause', async () => {
    const { client } = await setup()
    const mine = new RangeError('no such unit')
    const query = callQuery(['units', 'parsecs'], async () => {
      throw mine
    })
    const rejected = await client.cache.fetch(query).catch((e: unknown) => e)
    expect(rejected).toBeInstanceOf(TandemError)
    expect(rejected).toMatchObject({ code: 'query_failed', message: 'no such unit', cause: mine })
    expect(client.cache.get(query).getSnapshot().error).toBe(rejected)
  })

  it('a mutation whose fn throws: error, onError and the rejection are one TandemError mutation_failed', async () => {
    const { client } = await setup()
    const onError = vi.fn()
    const m = createMutation(
      client.cache,
      async () => {
        throw 'offline' // not even an Error
      },
      { onError },
    )
    const rejected = await m.mutate(undefined).catch((e: unknown) => e)
    expect(rejected).toMatchObject({
      name: 'TandemError',
      code: 'mutation_failed',
      message: 'offline',
      cause: 'offline',
    })
    expect(m.getSnapshot().error).toBe(rejected)
    expect(onError.mock.calls[0]?.[0]).toBe(rejected)

    // The client's own errors are TandemErrors already: kept as they are.
    const refused = new ValidationError('name', 'is empty')
    const m2 = createMutation(client.cache, async () => Promise.reject(refused))
    await expect(m2.mutate(undefined)).rejects.toBe(refused)
    expect(m2.getSnapshot().error).toBe(refused)
  })

  it('a live source (by shape) whose channel fails with a plain Error: liveError TandemError failed, the same each time', async () => {
    const { client } = await setup()
    const listeners: ((change: LiveState) => void)[] = []
    let state = 'subscribing'
    const source: LiveSource = {
      channel: () => ({
        get state() {
          return state
        },
        subscribe: () => () => {},
        on: (event: string, callback: (change: LiveState) => void) => {
          if (event === 'state') listeners.push(callback)
          return () => {}
        },
      }),
    }
    const say = (change: LiveState) => {
      state = change.current
      listeners.forEach((l) => l(change))
    }
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const query = listQuery('support/conversations', { status: 'active' })
    const unbind = bindLiveResources(source, client.cache, query)
    try {
      const cause = new Error('socket hung up')
      say({ current: 'failed', error: cause })
      const first = client.cache.get(query).getSnapshot().liveError
      expect(first).toBeInstanceOf(TandemError)
      expect(first).toMatchObject({ code: 'failed', message: 'socket hung up', cause })
      say({ current: 'failed', error: cause })
      expect(client.cache.get(query).getSnapshot().liveError).toBe(first)
      say({ current: 'subscribed' })
      expect(client.cache.get(query).getSnapshot().liveError).toBeNull()
    } finally {
      unbind()
      warn.mockRestore()
    }
  })
})
