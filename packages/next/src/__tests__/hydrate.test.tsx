// @vitest-environment happy-dom
// The browser's side: hydrating the server's HTML with the same state sends 0 requests and logs no
// mismatch; a boundary's entries a mounted component already watches go in after the commit; a
// remount with the same state object does not put its old data back; live updates arrive after.
import { listQuery, type Conversation, type DehydratedState, type ListData } from '@tandem/core'
import { useResources } from '@tandem/react'
import { act, render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { waitUntil } from '../../../../test/utils/wait.js'
import { TandemHydrate, TandemNextProvider } from '../index.js'
import { prefetch } from '../server.js'
import { onCleanup, setup } from './helpers.js'

const INBOX = listQuery('support/conversations', { limit: 5 })

function Inbox({ live = false }: { live?: boolean }) {
  const { items } = useResources('support/conversations', { limit: 5 }, { live })
  return (
    <ul>
      {items.map((c) => (
        <li key={c.id} data-tags={c.tags.join(' ')}>
          {c.subject}
        </li>
      ))}
    </ul>
  )
}

/** The browser: the server's HTML of `children` under the provider and `<TandemHydrate state>`, then hydrateRoot. */
async function hydratePage(baseUrl: string, state: DehydratedState, children: ReactNode) {
  const clientOptions = { baseUrl, auth: { url: `${baseUrl}/dev/token` }, retry: false as const }
  const page = (
    <TandemNextProvider clientOptions={clientOptions} realtimeOptions={{ WebSocket }}>
      <TandemHydrate state={state}>{children}</TandemHydrate>
    </TandemNextProvider>
  )
  const container = document.createElement('div')
  container.innerHTML = renderToString(page)
  document.body.append(container)
  const fetched = countFetches()
  const errors: unknown[] = []
  const root = await act(async () => hydrateRoot(container, page, { onRecoverableError: (e) => void errors.push(e) }))
  onCleanup(() => {
    act(() => root.unmount())
    container.remove()
  })
  expect(errors).toEqual([])
  return { container, fetched }
}

const subjectsOf = (state: { entries: { data: unknown }[] }) =>
  (state.entries[0]!.data as ListData<Conversation>).pages[0]!.data.map((c) => c.subject)

/** The page's requests, as the browser's network panel would show them (fetch, with the token's). */
function countFetches(): string[] {
  const urls: string[] = []
  const real = globalThis.fetch
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    urls.push(new URL(input instanceof Request ? input.url : String(input)).pathname)
    return real(input, init)
  })
  onCleanup(() => spy.mockRestore())
  return urls
}

describe('<TandemHydrate> in the browser', () => {
  it("hydrates the server's HTML with 0 requests and no hydration error", async () => {
    const s = await setup()
    const state = JSON.parse(JSON.stringify(await prefetch(s.server, INBOX))) as Awaited<ReturnType<typeof prefetch>>
    const { container, fetched } = await hydratePage(s.emu.url, state, <Inbox />)
    expect([...container.querySelectorAll('li')].map((li) => li.textContent)).toEqual(subjectsOf(state))
    // A stale entry would start its token and list fetches synchronously in the mount effects.
    await act(() => Promise.resolve())
    expect(fetched).toEqual([])
  })

  it('a live list resumes its channel from the server’s position: no list request, then updates patch it', async () => {
    const s = await setup()
    const state = await prefetch(s.server, INBOX)
    const { container, fetched } = await hydratePage(s.emu.url, state, <Inbox live />)
    const lists = () => fetched.filter((path) => path.endsWith('/conversations')).length
    // What changed between the server's fetch and the subscription comes from history (live-handover.test.ts).
    const [first, second] = (state.entries[0]!.data as ListData<Conversation>).pages[0]!.data
    for (const [c, tag] of [
      [first!, 'after-hydration'],
      [second!, 'once-live'],
    ] as const) {
      await s.server.support.conversations.update(c.id, { tags: [tag] })
      await waitUntil(() => container.querySelector(`li[data-tags="${tag}"]`) !== null, {
        what: `the live update ${tag}`,
        timeoutMs: 10_000,
      })
    }
    expect(lists()).toBe(0)
  })

  it('entries a mounted component watches go in after the commit, without updating it mid-render', async () => {
    const s = await setup()
    const clientOptions = { baseUrl: s.emu.url, auth: { url: `${s.emu.url}/dev/token` }, retry: false as const }
    const page = (state?: DehydratedState) => (
      <TandemNextProvider clientOptions={clientOptions}>
        <Inbox />
        {state && (
          <TandemHydrate state={state}>
            <p>boundary</p>
          </TandemHydrate>
        )}
      </TandemNextProvider>
    )
    const errors = vi.spyOn(console, 'error')
    onCleanup(() => errors.mockRestore())
    const { container, rerender } = render(page())
    // A list already on screen (fetched by the browser); then a boundary streams newer server data for it.
    const before = await screen.findAllByRole('listitem')
    const first = (await s.server.support.conversations.list({ limit: 5 })).data[0]!
    await s.server.support.conversations.update(first.id, { tags: ['newer-on-the-server'] })
    rerender(page(await prefetch(s.server, INBOX)))
    await screen.findByText('boundary')
    await waitUntil(() => container.querySelector('li[data-tags="newer-on-the-server"]') !== null, {
      what: 'the boundary state in the watched list',
    })
    expect(screen.getAllByRole('listitem')).toHaveLength(before.length)
    expect(errors).not.toHaveBeenCalled() // no "Cannot update a component while rendering a different component"
  })
})
