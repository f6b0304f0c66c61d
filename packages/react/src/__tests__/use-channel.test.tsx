import type { Unsubscribe } from '@tandem/core'
import { createRealtime, leasedChannels, type Channel, type Message } from '@tandem/realtime'
import { act, render, renderHook, waitFor } from '@testing-library/react'
import { StrictMode, type ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { useChannel, useConnectionState, usePresence } from '../realtime.js'
import { setup, type Setup } from './helpers.js'
import { presence } from '@tandem/realtime/presence'
import { slack } from '../../../../test/utils/wait.js'

/** A second connection (another user) to publish from. */
function publisher(s: Setup) {
  const fetchToken = async () => ({
    token: await s.emu.mintToken({ subject: 'other', scope: ['realtime'] }),
    expiresIn: 600,
  })
  return createRealtime({ auth: { fetchToken }, url: `${s.emu.url}/realtime` }, { WebSocket, maxQueued: 2_000 })
}

/** Counts the listeners a channel has outstanding, through its public `subscribe` and `on`. */
function countListeners(channel: Channel) {
  let live = 0
  for (const method of ['subscribe', 'on'] as const) {
    const original = channel[method].bind(channel) as (...args: unknown[]) => Unsubscribe
    vi.spyOn(channel, method).mockImplementation(((...args: unknown[]) => {
      live++
      const off = original(...args)
      let done = false
      return () => {
        if (!done) live--
        done = true
        off()
      }
    }) as never)
  }
  return () => live
}

describe('useChannel', () => {
  it(
    'under StrictMode: one subscribe frame, each message once; 1,000 mount/unmount cycles leak no listener, timer or subscription',
    async () => {
      const s = await setup({ realtime: true })
      const rt = s.realtime!
      const listeners = countListeners(rt.channel('room:1'))
      const seen: Message[] = []
      const strict = ({ children }: { children?: ReactNode }) => <StrictMode>{s.wrapper({ children })}</StrictMode>
      const { result, unmount } = renderHook(() => useChannel('room:1', (m) => seen.push(m)), { wrapper: strict })
      await waitFor(() => expect(result.current.state).toBe('subscribed'))
      expect(s.emu.realtime.stats.framesIn.subscribe).toBe(1)

      const pub = publisher(s)
      await pub.channel('room:1').publish('hello', { n: 1 })
      await waitFor(() => expect(seen).toHaveLength(1))
      await act(() => result.current.publish('hello', { n: 2 })) // publish from the hook
      await waitFor(() => expect(seen.map((m) => m.data)).toEqual([{ n: 1 }, { n: 2 }]))
      unmount()

      for (let i = 0; i < 1_000; i++) {
        const { unmount } = render(<TestChannel name="room:1" />, { wrapper: strict })
        unmount()
      }
      // Every lease lets go after its delay: no timer left, nothing subscribed, nothing listening.
      await s.emu.realtime.waitFor(() => (s.emu.realtime.stats.framesIn.unsubscribe ?? 0) >= 1)
      await waitFor(() => expect(leasedChannels(rt)).toBe(0))
      expect(listeners()).toBe(0)
      expect(rt.channel('room:1').state).toBe('unsubscribed')
      expect(s.emu.realtime.stats.framesIn.subscribe).toBe(1) // the cycles reused the held subscription
      expect(s.emu.realtime.stats.framesIn.unsubscribe).toBe(1)
      pub.close()
    },
    slack(15_000),
  ) // 1,000 StrictMode cycles: slower on a busy machine

  it('a burst of 1,000 messages causes a bounded number of renders', async () => {
    const s = await setup({
      realtime: true,
      emulator: { realtime: { publishRate: { limit: 100_000, intervalMs: 1000 } } },
    })
    let renders = 0
    const { result } = renderHook(
      () => {
        renders++
        return useChannel<number>('burst', undefined, { keep: 1_000 })
      },
      { wrapper: s.wrapper },
    )
    await waitFor(() => expect(result.current.state).toBe('subscribed'))
    const pub = publisher(s)
    renders = 0
    await Promise.all(Array.from({ length: 1_000 }, (_, i) => pub.channel('burst').publish('n', i)))
    await waitFor(() => expect(result.current.messages).toHaveLength(1_000))
    expect(result.current.messages.map((m) => m.data)).toEqual(Array.from({ length: 1_000 }, (_, i) => i))
    expect(renders).toBeLessThan(60) // a frame's worth at a time, not one per message
    pub.close()
  })

  it('keep bounds messages; the callback may change without resubscribing', async () => {
    const s = await setup({ realtime: true })
    const calls: string[] = []
    const { result, rerender } = renderHook(
      ({ tag }) => useChannel<number>('keep', (m) => calls.push(`${tag}:${m.data}`), { keep: 2, event: 'n' }),
      {
        wrapper: s.wrapper,
        initialProps: { tag: 'a' },
      },
    )
    await waitFor(() => expect(result.current.state).toBe('subscribed'))
    const pub = publisher(s)
    await pub.channel('keep').publish('n', 1)
    await waitFor(() => expect(calls).toEqual(['a:1']))
    rerender({ tag: 'b' })
    await pub.channel('keep').publish('other', 0) // another event: filtered out
    await pub.channel('keep').publish('n', 2)
    await pub.channel('keep').publish('n', 3)
    await waitFor(() => expect(result.current.messages.map((m) => m.data)).toEqual([2, 3]))
    expect(calls).toEqual(['a:1', 'b:2', 'b:3'])
    expect(s.emu.realtime.stats.framesIn.subscribe).toBe(1)
    pub.close()
  })
})

function TestChannel({ name }: { name: string }) {
  useChannel(name, () => {})
  return null
}

describe('usePresence and useConnectionState', () => {
  it('members follow enter, update and leave', async () => {
    const s = await setup({ realtime: true })
    const watcher = renderHook(() => usePresence<{ name: string }>('room:p'), { wrapper: s.wrapper })
    const pub = publisher(s)
    await presence(pub.channel('room:p')).enter({ name: 'Other' })
    await waitFor(() => expect(watcher.result.current.members.map((m) => m.data)).toEqual([{ name: 'Other' }]))

    const me = renderHook(({ name }) => usePresence('room:p', { name }), {
      wrapper: s.wrapper,
      initialProps: { name: 'Me' },
    })
    await waitFor(() => expect(watcher.result.current.members.map((m) => m.data)).toContainEqual({ name: 'Me' }))
    me.rerender({ name: 'Me, typing' })
    await waitFor(() =>
      expect(watcher.result.current.members.map((m) => m.data)).toContainEqual({ name: 'Me, typing' }),
    )
    me.rerender({ name: 'Me, typing' }) // same value: nothing sent
    me.unmount()
    await waitFor(() => expect(watcher.result.current.members.map((m) => m.data)).toEqual([{ name: 'Other' }]))
    expect(s.emu.realtime.stats.framesIn['presence.update']).toBe(1)
    pub.close()
  })

  it('useConnectionState follows a dropped connection back to connected', async () => {
    const s = await setup({ realtime: true })
    const states: string[] = []
    const retries: (number | undefined)[] = []
    const { result } = renderHook(
      () => {
        const c = useConnectionState()
        useChannel('conn') // a channel in use makes it connect
        states.push(c.state)
        if (c.state === 'reconnecting') retries.push(c.retryInMs)
        return c
      },
      { wrapper: s.wrapper },
    )
    await waitFor(() => expect(result.current.state).toBe('connected'))
    const before = states.length
    s.emu.realtime.dropConnections()
    // Every render is recorded: the reconnect (20 ms backoff here) may be quicker than a poll.
    await waitFor(() => expect(states.slice(before)).toContain('reconnecting'))
    await waitFor(() => expect(result.current.state).toBe('connected'))
    expect(states).toEqual(expect.arrayContaining(['connecting', 'connected', 'reconnecting']))
    expect(states.indexOf('reconnecting')).toBeLessThan(states.lastIndexOf('connected'))
  })
})
