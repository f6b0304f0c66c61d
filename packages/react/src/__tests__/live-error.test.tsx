// A live list that can never be live says so in the hook (issue 18, finding 5): the README's
// quick-start scope has no realtime, so `live: true` cannot work, and the hook's `liveError` says why.
import { TandemError } from '@tandem/core'
import { renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { TandemProvider, useResources } from '../index.js'
import { setup, type Setup } from './helpers.js'

describe('live: true that cannot be live', () => {
  it("the quick-start scope ['maps', 'support:read']: data as fetched, liveError forbidden, one warning", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const late: { s?: Setup } = {} // the token function runs after setup returns
    const mint = async () => ({
      token: await late.s!.emu.mintToken({ subject: 'reader', scope: ['maps', 'support:read'] }),
      expiresIn: 600,
    })
    const s = (late.s = await setup({ realtime: true, client: { auth: { fetchToken: mint } } }))
    const { result } = renderHook(() => useResources('support/conversations', { status: 'active' }, { live: true }), {
      wrapper: s.wrapper,
    })
    // The refused subscription and the list's answer come in either order: wait for both.
    await waitFor(() => expect(result.current.liveError).toMatchObject({ name: 'RealtimeError', code: 'forbidden' }))
    await waitFor(() => expect(result.current).toMatchObject({ status: 'success', error: null }))
    expect(result.current.items.length).toBeGreaterThan(0)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toContain('support:conversations')
    warn.mockRestore()
  })

  it('a live list with a realtime connection that works has liveError null', async () => {
    const s = await setup({ realtime: true })
    const { result } = renderHook(() => useResources('support/conversations', {}, { live: true }), {
      wrapper: s.wrapper,
    })
    await waitFor(() => expect(s.realtime!.channel('support:conversations').state).toBe('subscribed'))
    expect(result.current.liveError).toBeNull()
  })

  it('live: true without a realtime connection throws TandemError no_realtime', async () => {
    const s = await setup()
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    const wrapper = ({ children }: { children?: React.ReactNode }) => (
      <TandemProvider client={s.client}>{children}</TandemProvider>
    )
    let error: unknown
    try {
      renderHook(() => useResources('support/conversations', {}, { live: true }), { wrapper })
    } catch (e) {
      error = e
    }
    quiet.mockRestore()
    expect(error).toBeInstanceOf(TandemError)
    expect(error).toMatchObject({ code: 'no_realtime', message: expect.stringContaining('realtime=') })
  })
})
