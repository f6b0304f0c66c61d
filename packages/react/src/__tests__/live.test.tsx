import { renderHook, waitFor } from '@testing-library/react'
import { StrictMode, type ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { useResource, useResources } from '../index.js'
import { setup, type Setup } from './helpers.js'

/** Loaded, the channel subscribed, and the sync refetch after the subscription done. */
async function settled(s: Setup, name: string, current: () => { isFetching: boolean; status: string }) {
  await waitFor(() => expect(s.realtime!.channel(name).state).toBe('subscribed'))
  await waitFor(() => expect(current()).toMatchObject({ status: 'success', isFetching: false }))
}

describe('live: true', () => {
  it('resources (oldest first): an update patches in place, a delete removes, a creation past the loaded page waits for it; a discontinuity refetches once', async () => {
    const s = await setup({ realtime: true })
    const strict = ({ children }: { children?: ReactNode }) => <StrictMode>{s.wrapper({ children })}</StrictMode>
    const { result } = renderHook(() => useResources('support/resources', { limit: 5 }, { live: true }), {
      wrapper: strict,
    })
    await settled(s, 'support:resources', () => result.current)
    const gets = s.gets()

    const [first, second] = result.current.items
    await s.client.support.resources.update(second!.id, { name: 'Live one, renamed' })
    await waitFor(() => expect(result.current.items[1]?.name).toBe('Live one, renamed')) // in place
    await s.client.support.resources.remove(first!.id)
    await waitFor(() => expect(result.current.items.map((x) => x.id)).not.toContain(first!.id))
    // New resources go last: past this 5-item page, so not shown here (the next page has it).
    const created = await s.client.support.resources.create({ name: 'Live one' })
    const probe = await s.client.support.resources.list({ limit: 5 }) // ordered after the event
    expect(result.current.items.map((x) => x.id)).not.toContain(created.id)
    expect(result.current.items.map((x) => x.id)).toEqual(probe.data.slice(0, 4).map((x) => x.id))
    expect(s.gets() - gets).toBe(1) // the probe: the events did the rest

    // The service loses the channel's history (new epoch): the next message reveals the gap.
    s.emu.realtime.restart({ channel: 'support:resources' })
    await s.client.support.resources.create({ name: 'After the gap' })
    await waitFor(() => expect(s.gets('/v1/resources') - gets).toBe(2)) // the probe, then one refetch
    await waitFor(() => expect(result.current.isFetching).toBe(false))
    expect(result.current.items).toHaveLength(5) // the refetch filled the page again
    expect(s.emu.realtime.stats.framesIn.subscribe).toBe(1) // StrictMode: one subscribe on the wire
  })

  it('fifty live lists of one key share one binding: one refetch per discontinuity', async () => {
    const s = await setup({ realtime: true })
    const hooks = Array.from({ length: 50 }, () =>
      renderHook(() => useResources('maps/resources', { limit: 3 }, { live: true }), { wrapper: s.wrapper }),
    )
    const last = hooks.at(-1)!
    await settled(s, 'maps:resources', () => last.result.current)
    const gets = s.gets('/v1/resources')
    s.emu.realtime.restart({ channel: 'maps:resources' })
    const first = last.result.current.items[0]!
    await s.client.maps.resources.update(first.id, { name: 'Seen by all fifty' })
    await waitFor(() => expect(hooks.every((h) => h.result.current.items[0]?.name === 'Seen by all fifty')).toBe(true))
    await waitFor(() => expect(last.result.current.isFetching).toBe(false))
    expect(s.gets('/v1/resources') - gets).toBe(1)
  })

  it('support conversations: an update patches the item and the list; a new one lands on top of the lists it matches, with no request', async () => {
    const s = await setup({ realtime: true })
    const { result } = renderHook(
      () => ({
        list: useResources('support/conversations', { status: 'active', limit: 10 }, { live: true }),
      }),
      { wrapper: s.wrapper },
    )
    await settled(s, 'support:conversations', () => result.current.list)
    const target = result.current.list.items[0]!
    const item = renderHook(() => useResource('support/conversations', target.id, { live: true }), {
      wrapper: s.wrapper,
    })
    await waitFor(() => expect(item.result.current.status).toBe('success'))
    const gets = s.gets()
    await s.client.support.conversations.update(target.id, { tags: ['live'] })
    await waitFor(() => expect(item.result.current.data?.tags).toEqual(['live']))
    await waitFor(() => expect(result.current.list.items.find((c) => c.id === target.id)?.tags).toEqual(['live']))
    expect(s.gets()).toBe(gets)

    const mailboxId = target.mailboxId
    const created = await s.client.support.conversations.create({
      mailboxId,
      subject: 'Live!',
      customer: { email: 'a@example.com' },
      text: 'Hello',
    })
    // Active, and the newest: first in the `status: active` list, placed from the event alone.
    expect(created.status).toBe('active')
    await waitFor(() => expect(result.current.list.items[0]?.id).toBe(created.id))
    expect(s.gets()).toBe(gets)
  })
})
