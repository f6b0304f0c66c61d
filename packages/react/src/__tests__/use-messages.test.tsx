import { act, renderHook, waitFor } from '@testing-library/react'
import { Profiler, StrictMode, type ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { useMessages } from '../realtime.js'
import { setup } from './helpers.js'

describe('useMessages', () => {
  it('history on mount, then live messages once each, in order, under StrictMode; loadEarlier pages back', async () => {
    const s = await setup({ realtime: true })
    for (let i = 1; i <= 30; i++) s.emu.realtime.publish('chat:hook', 'message', { i })
    const strict = ({ children }: { children?: ReactNode }) => <StrictMode>{s.wrapper({ children })}</StrictMode>
    const { result } = renderHook(() => useMessages<{ i: number }>('chat:hook', { initial: 10 }), { wrapper: strict })
    await waitFor(() =>
      expect(result.current.messages.map((m) => m.data.i)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]),
    )
    expect(result.current.hasEarlier).toBe(true)
    expect(s.emu.realtime.stats.framesIn.subscribe).toBe(1)
    for (let i = 31; i <= 40; i++) s.emu.realtime.publish('chat:hook', 'message', { i })
    await waitFor(() => expect(result.current.messages).toHaveLength(20))
    await act(() => result.current.loadEarlier(20))
    expect(result.current.messages.map((m) => m.offset)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    expect(result.current.hasEarlier).toBe(false)
  })

  it('paused: no render however many messages arrive, none lost; unpaused shows them all', async () => {
    const s = await setup({ realtime: true })
    let renders = 0
    const counted = ({ children }: { children?: ReactNode }) => (
      <Profiler id="m" onRender={() => void renders++}>
        {s.wrapper({ children })}
      </Profiler>
    )
    const { result, rerender } = renderHook(
      ({ paused }: { paused: boolean }) => useMessages('chat:paused', { initial: 0, paused }),
      { wrapper: counted, initialProps: { paused: false } },
    )
    await waitFor(() => expect(s.realtime!.channel('chat:paused').state).toBe('subscribed'))
    s.emu.realtime.publish('chat:paused', 'message', 1)
    await waitFor(() => expect(result.current.messages).toHaveLength(1))
    rerender({ paused: true })
    const before = renders
    for (let i = 2; i <= 200; i++) s.emu.realtime.publish('chat:paused', 'message', i)
    // The hook's own log still takes them: wait until the channel has delivered the last one.
    await waitFor(() => expect(s.realtime!.channel('chat:paused').position?.offset).toBe(200))
    expect(renders).toBe(before)
    expect(result.current.messages).toHaveLength(1)
    rerender({ paused: false })
    await waitFor(() =>
      expect(result.current.messages.map((m) => m.data)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1)),
    )
  })

  it('chunks and count without building messages; one result per snapshot; a spread still has messages', async () => {
    const s = await setup({ realtime: true })
    for (let i = 1; i <= 150; i++) s.emu.realtime.publish('chat:chunks', 'message', { i })
    const { result, rerender } = renderHook(() => useMessages<{ i: number }>('chat:chunks', { initial: 150 }), {
      wrapper: s.wrapper,
    })
    await waitFor(() => expect(result.current.count).toBe(150))
    const r = result.current
    // `messages` is a getter over the chunks (built on its first read), not an array copied per render.
    expect(typeof Object.getOwnPropertyDescriptor(r, 'messages')?.get).toBe('function')
    expect(r.chunks.map((c) => c.length)).toEqual([6, ...Array<number>(9).fill(16)])
    rerender()
    expect(result.current).toBe(r) // nothing changed: the same result, so props built from it stay equal
    const spread = { ...r }
    expect(spread.messages.map((m) => m.data.i)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1))
    expect(spread.messages).toBe(r.messages)
    expect(typeof spread.loadEarlier).toBe('function')
  })
})
