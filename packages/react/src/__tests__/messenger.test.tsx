// @tandem/react/messenger: the hooks over a customer's messenger, against the emulator over HTTP.
// They are thin (useSyncExternalStore over the core stores): what is checked is that each shows its
// store, follows the customer's writes, and that the help search sends one request per pause.
import { isTandemError } from '@tandem/core'
import { messenger } from '@tandem/core/messenger'
import { act, renderHook } from '@testing-library/react'
import { StrictMode, type ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { poll } from '../../../../test/utils/wait.js'
import { createClientOfStyle } from '../../../core/src/__tests__/client-style.js'
import {
  MessengerProvider,
  useCustomerConversations,
  useCustomerThread,
  useHelpSearch,
  useUnreadCount,
} from '../messenger.js'
import { setup } from './helpers.js'

/** A customer's messenger on a new emulator, its requests counted, and a StrictMode wrapper. */
async function customer(subject = 'cus_hooks') {
  const { emu } = await setup()
  const { client } = createClientOfStyle({
    baseUrl: emu.url,
    auth: {
      fetchToken: async () => ({
        token: await emu.mintToken({ subject, scope: ['support:customer'] }),
        expiresIn: 600,
      }),
    },
    retry: false,
  })
  const paths: string[] = []
  client.on('request', (r) => void (r.errorCode !== 'aborted' && paths.push(`${r.method} ${r.path}`)))
  const desk = messenger(client)
  const wrapper = ({ children }: { children?: ReactNode }) => (
    <StrictMode>
      <MessengerProvider messenger={desk}>{children}</MessengerProvider>
    </StrictMode>
  )
  const agent = createClientOfStyle({
    baseUrl: emu.url,
    auth: {
      fetchToken: async () => ({
        token: await emu.mintToken({ subject: 'agent_1', scope: ['support'] }),
        expiresIn: 600,
      }),
    },
  }).client
  return { desk, wrapper, paths, agent }
}

describe('@tandem/react/messenger', () => {
  it('the conversations, the unread count and a thread, each following the customer’s writes', async () => {
    const { desk, wrapper, agent } = await customer()
    const c = await desk.conversations.start({ text: 'Hooked' })
    await agent.support.conversations.reply(c.id, { text: 'Answered' })
    const { result } = renderHook(
      () => ({ list: useCustomerConversations(), unread: useUnreadCount(), thread: useCustomerThread(c.id) }),
      { wrapper },
    )
    await poll(() => result.current.list.status === 'ready' && result.current.thread.status === 'ready', 'loaded')
    expect(result.current.list.conversations.map((x) => x.id)).toEqual([c.id])
    expect(result.current.unread.total).toBe(1)
    expect(result.current.thread.messages.map((m) => m.text)).toEqual(['Hooked', 'Answered'])

    await act(() => desk.conversations.markRead(c.id))
    expect(result.current.unread.total).toBe(0)
    await act(() => desk.conversations.reply(c.id, { text: 'Thanks' }))
    expect(result.current.thread.messages.map((m) => m.text)).toEqual(['Hooked', 'Answered', 'Thanks'])
  })

  it('useCustomerThread(null) is idle and sends nothing', async () => {
    const { wrapper, paths } = await customer()
    const { result } = renderHook(() => useCustomerThread(null), { wrapper })
    expect(result.current).toMatchObject({ status: 'idle', messages: [], conversation: null })
    expect(paths).toEqual([])
  })

  it('useHelpSearch asks once per pause in typing, for the last query only', async () => {
    const { wrapper, paths } = await customer()
    const { result, rerender } = renderHook(({ q }) => useHelpSearch(q, { debounceMs: 200 }), {
      wrapper,
      initialProps: { q: '' },
    })
    expect(result.current.status).toBe('idle')
    for (const q of ['p', 'pa', 'pas', 'password']) rerender({ q })
    expect(result.current).toMatchObject({ status: 'loading', query: 'password' })
    await poll(() => result.current.status !== 'loading', 'the answer')
    expect(result.current.status).toBe('ready')
    expect(result.current.query).toBe('password')
    expect(result.current.articles.length).toBeGreaterThan(0)
    expect(result.current.articles.every((a) => a.published)).toBe(true)
    expect(paths.filter((p) => p === 'GET /v1/docs/articles')).toHaveLength(1)
    rerender({ q: '  ' })
    expect(result.current).toMatchObject({ status: 'idle', articles: [] })
  })

  it('outside <MessengerProvider> the hooks throw no_provider', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {}) // React logs the render error
    let error: unknown
    try {
      renderHook(() => useUnreadCount())
    } catch (e) {
      error = e
    }
    quiet.mockRestore()
    expect(isTandemError(error) && error.code).toBe('no_provider')
    expect(String((error as Error).message)).toMatch(/MessengerProvider/)
  })
})
