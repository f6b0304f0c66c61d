import { createRealtime } from '@tandem/realtime'
import { resourcePresence } from '@tandem/realtime/resource-presence'
import { act, render, renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { useCollectionPresence, useResourcePresence } from '../resource-presence.js'
import { setup, type Setup } from './helpers.js'

const PATH = 'support/conversations'

/** Another agent on its own connection, whose token says its name (the one the service shows). */
function otherAgent(s: Setup) {
  const fetchToken = async () => ({
    token: await s.emu.mintToken({ subject: 'bob', scope: ['realtime'], profile: { name: 'Bob' } }),
    expiresIn: 600,
  })
  const rt = createRealtime({ auth: { fetchToken }, url: `${s.emu.url}/realtime` }, { WebSocket })
  return rt
}

describe('useResourcePresence', () => {
  it('shows the other agent viewing, typing and locking; its own lock is mine; unmount leaves', async () => {
    const s = await setup({ realtime: true })
    const rt = otherAgent(s)
    try {
      const bob = resourcePresence(rt, PATH, 'cnv_1', { name: 'Bob' })
      bob.subscribe(() => {})
      const { result, unmount } = renderHook(() => useResourcePresence(PATH, 'cnv_1', { name: 'Ada' }), {
        wrapper: s.wrapper,
      })
      await waitFor(() => expect(result.current.viewers.map((m) => m.data.name)).toEqual(['Bob']))
      expect(result.current.status).toBe('live')
      bob.setTyping(true)
      await waitFor(() => expect(result.current.typing.map((m) => m.data.name)).toEqual(['Bob']))
      act(() => result.current.claimLock({ ttlMs: 10_000 }))
      await waitFor(() => expect(result.current.lock?.mine).toBe(true))
      // The dev token has no profile: the service shows no name (its `name` option is a hint), the UI the clientId.
      await waitFor(() =>
        expect(bob.getSnapshot().lock?.holder).toMatchObject({ clientId: 'dev-user', data: { name: null } }),
      )
      unmount()
      await waitFor(() => expect(bob.getSnapshot()).toMatchObject({ viewers: [], lock: null }))
      bob.close()
    } finally {
      rt.close()
    }
  })
})

describe('useCollectionPresence', () => {
  it('gives each row its viewers through one store', async () => {
    const s = await setup({ realtime: true })
    const rt = otherAgent(s)
    try {
      const ids = ['cnv_a', 'cnv_b', 'cnv_c']
      function Row({ id }: { id: string }) {
        const rows = useCollectionPresence(PATH)
        return (
          <li data-testid={id}>
            {rows
              .get(id)
              ?.viewers.map((m) => m.data.name)
              .join(',') ?? ''}
          </li>
        )
      }
      const view = render(
        <ul>
          {ids.map((id) => (
            <Row key={id} id={id} />
          ))}
        </ul>,
        { wrapper: s.wrapper },
      )
      const bob = resourcePresence(rt, PATH, 'cnv_b', { name: 'Bob' })
      await waitFor(() => expect(view.getByTestId('cnv_b').textContent).toBe('Bob'))
      expect(view.getByTestId('cnv_a').textContent).toBe('')
      bob.close()
      await waitFor(() => expect(view.getByTestId('cnv_b').textContent).toBe(''))
    } finally {
      rt.close()
    }
  })
})
