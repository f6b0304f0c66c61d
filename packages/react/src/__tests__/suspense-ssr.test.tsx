import { createClient, type Resource } from '@tandem/core'
import { act, render, screen, waitFor } from '@testing-library/react'
import { Component, Suspense, type ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { TandemProvider, useResource, useResources } from '../index.js'
import { setup } from './helpers.js'

class Boundary extends Component<{ children?: ReactNode; onReset?: () => void }, { error: Error | null }> {
  override state = { error: null as Error | null }
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  override render() {
    if (!this.state.error) return this.props.children
    return (
      <button
        onClick={() => {
          this.props.onReset?.()
          this.setState({ error: null })
        }}
      >
        error: {this.state.error.message}
      </button>
    )
  }
}

function Names({ limit }: { limit: number }) {
  // With suspense, `data` is always there when this renders.
  const { items } = useResources('support/resources', { limit }, { suspense: true })
  return (
    <ul>
      {items.map((x) => (
        <li key={x.id}>{x.name}</li>
      ))}
    </ul>
  )
}

describe('Suspense, error boundaries and SSR', () => {
  it('suspends until the first fetch is done, with one request (no refetch on mount)', async () => {
    const s = await setup()
    render(
      <Suspense fallback={<p>loading</p>}>
        <Names limit={3} />
        <Names limit={3} />
      </Suspense>,
      { wrapper: s.wrapper },
    )
    expect(screen.getByText('loading')).toBeTruthy()
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(6))
    expect(s.gets('/v1/resources')).toBe(1)
  })

  it('a failed first fetch goes to the error boundary, and a reset that refetches recovers', async () => {
    const s = await setup()
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {}) // React logs caught errors
    s.emu.faults.failNext(1, { service: 'support', status: 404, code: 'not_found' })
    const retry = () =>
      void s.client.cache.get({ service: 'support', collection: 'resources', id: 'res_sup_1' }).refetch()
    function Item() {
      const { data } = useResource('support/resources', 'res_sup_1', { suspense: true })
      return <p>item: {data?.name}</p>
    }
    render(
      <Boundary onReset={retry}>
        <Suspense fallback={<p>loading</p>}>
          <Item />
        </Suspense>
      </Boundary>,
      { wrapper: s.wrapper },
    )
    const button = await screen.findByRole('button')
    expect(button.textContent).toMatch(/^error: /)
    act(() => button.click())
    await screen.findByText(/^item: /)
    expect(s.gets()).toBe(2)
    spy.mockRestore()
  })

  it('renderToString with a hydrated cache renders the data and fetches nothing; hydrating the HTML fetches nothing either', async () => {
    const s = await setup()
    // The server: fetch, render, dehydrate.
    await s.client.cache.fetch({ service: 'support', collection: 'resources', params: { limit: 3 } })
    const state = JSON.parse(JSON.stringify(s.client.cache.dehydrate())) as ReturnType<typeof s.client.cache.dehydrate>
    const server = createClient({ baseUrl: s.emu.url, auth: { url: `${s.emu.url}/dev/token` } })
    server.cache.hydrate(state)
    const serverRequests: unknown[] = []
    server.on('request', (e) => serverRequests.push(e))
    const app = (c: typeof server) => (
      <TandemProvider client={c}>
        <Names limit={3} />
      </TandemProvider>
    )
    const html = renderToString(app(server))
    const names = (state.entries[0]!.data as { pages: { data: Resource[] }[] }).pages[0]!.data.map((x) => x.name)
    for (const name of names) expect(html).toContain(name)
    expect(serverRequests).toHaveLength(0)

    // The browser: a fresh client hydrated from the same state, hydrating the server's HTML.
    const browser = createClient({ baseUrl: s.emu.url, auth: { url: `${s.emu.url}/dev/token` } })
    browser.cache.hydrate(state)
    const browserRequests: unknown[] = []
    browser.on('request', (e) => browserRequests.push(e))
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const errors: unknown[] = []
    const root = await act(async () =>
      hydrateRoot(container, app(browser), { onRecoverableError: (e) => errors.push(e) }),
    )
    expect(errors).toEqual([]) // no hydration mismatch
    expect(container.querySelectorAll('li')).toHaveLength(3)
    await act(() => Promise.resolve())
    expect(browserRequests).toHaveLength(0)
    act(() => root.unmount())
    container.remove()
    server.cache.clear()
    browser.cache.clear()
  })
})
