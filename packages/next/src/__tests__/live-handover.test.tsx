// @vitest-environment happy-dom
// The live catch-up without a refetch: `prefetch` reads where the collection's channel stands
// before it fetches the list, `hydrate` hands that position to the entry, and the browser's live
// binding resumes the channel from it: history brings what the server's fetch missed, so the
// browser sends 0 list requests and loses no event. When history cannot (trimmed, a new epoch),
// the channel's `discontinuity` makes it fetch once.
import { listQuery, type Conversation, type DehydratedState, type ListData, type TandemClient } from '@tandem/core'
import type { Emulator } from '@tandem/emulator'
import { useResources, useTandem, type TandemContextValue } from '@tandem/react'
import type { Realtime } from '@tandem/realtime'
import { act, render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { waitUntil } from '../../../../test/utils/wait.js'
import { TandemHydrate, TandemNextProvider } from '../index.js'
import { createServerClient, prefetch } from '../server.js'
import { AGENT, MINT, onCleanup, setup } from './helpers.js'

const INBOX = listQuery('support/conversations', { limit: 5 })
const CHANNEL = 'support:conversations'
const WAIT = { timeoutMs: 10_000 }

async function open(client: TandemClient, subject: string): Promise<Conversation> {
  const mailboxId = (await client.support.mailboxes.list()).data[0]!.id
  return client.support.conversations.create({
    mailboxId,
    subject,
    customer: { email: 'handover@example.com', name: 'Hand Over' },
    text: subject,
  })
}

/** The browser: the provider and `<TandemHydrate>` with the state as it crosses the wire, a live list under them. */
async function browser(emu: Emulator, state: DehydratedState) {
  let tandem: TandemContextValue | undefined
  function Inbox() {
    tandem = useTandem()
    useResources('support/conversations', { limit: 5 }, { live: true })
    return null
  }
  const clientOptions = { baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, retry: false as const }
  await act(async () =>
    render(
      <TandemNextProvider clientOptions={clientOptions} realtimeOptions={{ WebSocket }}>
        <TandemHydrate state={JSON.parse(JSON.stringify(state)) as DehydratedState}>
          <Inbox />
        </TandemHydrate>
      </TandemNextProvider>,
    ),
  )
  const { client, cache } = tandem!
  const rt = tandem!.realtime as Realtime
  onCleanup(() => rt.close())
  let lists = 0
  onCleanup(client.on('request', (r) => void (r.method === 'GET' && r.path === '/v1/conversations' && lists++)))
  const entry = cache.get(INBOX)
  // After the binding (the mount's effect): it made the channel, from the handed-over position.
  const gaps: unknown[] = []
  onCleanup(rt.channel(CHANNEL).on('discontinuity', (d) => void gaps.push(d)))
  const ids = () => entry.getSnapshot().items.map((c) => c.id)
  return { rt, entry, ids, lists: () => lists, gaps }
}

const idsOf = (state: DehydratedState) =>
  (state.entries[0]!.data as ListData<Conversation>).pages.flatMap((p) => p.data.map((c) => c.id))

describe('the live catch-up from the server’s position', () => {
  it('0 list requests; created before the list fetch and before the subscribe, each shown once', async () => {
    const s = await setup()
    let during: Promise<Conversation> | undefined
    // A change between the position read and the list fetch: in the data and replayed too.
    const server = createServerClient({
      baseUrl: s.emu.url,
      mint: MINT,
      ...AGENT,
      retry: false,
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input))
        if (url.pathname === '/support/v1/conversations' && (init?.method ?? 'GET') === 'GET')
          await (during ??= open(s.server, 'Between the position and the list'))
        return fetch(input, init)
      },
    })
    const state = await prefetch(server, INBOX)
    const first = await during!
    expect(state.live).toEqual([
      { channel: CHANNEL, position: { epoch: expect.any(String), offset: expect.any(Number) } },
    ])
    expect(idsOf(state)[0]).toBe(first.id)
    // A change between the server's answer and the browser's subscription: only history has it.
    const later = await open(s.server, 'Between the prefetch and the subscription')

    const b = await browser(s.emu, state)
    await waitUntil(() => b.rt.channel(CHANNEL).state === 'subscribed' && b.ids()[0] === later.id, {
      ...WAIT,
      what: 'the replayed creation on top',
    })
    expect(b.ids().slice(0, 2)).toEqual([later.id, first.id])
    expect(new Set(b.ids()).size).toBe(b.ids().length) // each once
    // Live after that, still with no list request.
    const after = await open(s.server, 'After the subscription')
    await waitUntil(() => b.ids()[0] === after.id, { ...WAIT, what: 'the live creation' })
    expect(b.ids().filter((id) => [first.id, later.id, after.id].includes(id))).toEqual([after.id, later.id, first.id])
    expect(b.gaps).toEqual([])
    expect(b.lists()).toBe(0)
  })

  it.each([
    ['history trimmed', (emu: Emulator) => emu.realtime.trimHistory(CHANNEL, 0), 'history_expired'],
    ['a new epoch', (emu: Emulator) => emu.realtime.restart({ channel: CHANNEL }), 'epoch_changed'],
  ] as const)('%s: the gap is a discontinuity, and the list is fetched once', async (_, lose, reason) => {
    const s = await setup()
    const state = await prefetch(s.server, INBOX)
    const missed = await open(s.server, 'Lost from history')
    lose(s.emu)

    const b = await browser(s.emu, state)
    await waitUntil(() => b.ids()[0] === missed.id, { ...WAIT, what: 'the refetched list' })
    expect(b.gaps).toEqual([expect.objectContaining({ channel: CHANNEL, reason })])
    expect(b.lists()).toBe(1)
    expect(new Set(b.ids()).size).toBe(b.ids().length)
  })

  it('data not handed over with a position (fetched by the browser) still catches up with one request', async () => {
    const s = await setup()
    const state = await prefetch(s.server, INBOX)
    const b = await browser(s.emu, { entries: state.entries }) // no `live`: an older server, or a cache restored
    await waitUntil(() => b.rt.channel(CHANNEL).state === 'subscribed' && b.lists() === 1, {
      ...WAIT,
      what: 'the catch-up request',
    })
    await waitUntil(() => !b.entry.getSnapshot().isFetching, WAIT)
    expect(b.lists()).toBe(1)
  })
})
