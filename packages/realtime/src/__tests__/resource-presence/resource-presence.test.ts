// Resource presence against the emulator over 127.0.0.1: agents see who views, types in and locks a
// conversation through one presence channel per collection; changes arrive fast; a crashed tab's
// lock goes with its member's grace.
import { slack, until } from '../../../../../test/utils/wait.js'
import { isValidationError } from '@tandem/core'
import { LOCK_TTL_MAX, MAX_PRESENCE_RESOURCES, resourcePresenceChannel } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { presence } from '../../presence/presence.js'
import { collectionPresence, resourcePresence, type ResourcePresence } from '../../resource-presence.js'
import type { ReadableStore } from '@tandem/core'
import { client, untilState, useEmulator } from '../helpers.js'

const PATH = 'support/conversations'
const options = { realtime: { presenceGraceMs: 500 } }
const emu = useEmulator(options)
const scope = ['realtime']

const untilStore = <S>(store: ReadableStore<S>, check: (s: S) => boolean, timeoutMs = 5_000, what = 'store') =>
  until(store.subscribe, () => check(store.getSnapshot()), timeoutMs, what)
const names = (h: ResourcePresence, key: 'viewers' | 'typing') => h.getSnapshot()[key].map((m) => m.data.name)

describe('resourcePresence', () => {
  it('shows the other agents who view, type and lock, with their verified names', async () => {
    const a = client(emu(), { subject: 'ada', scope, profile: { name: 'Ada' } })
    const b = client(emu(), { subject: 'bob', scope, profile: { name: 'Bob' } })
    // The name option is a hint: the service shows the token's profile name.
    const ha = resourcePresence(a, PATH, 'cnv_1', { name: 'Not Ada' })
    const hb = resourcePresence(b, PATH, 'cnv_1', { name: 'Bob' })
    hb.subscribe(() => {})
    await untilStore(hb, (s) => s.viewers.length === 1, 5_000, 'Bob sees Ada')
    expect(hb.getSnapshot()).toMatchObject({ status: 'live', typing: [], lock: null })
    expect(names(hb, 'viewers')).toEqual(['Ada'])
    expect(hb.getSnapshot().viewers[0]!.clientId).toBe('ada')
    // Without a profile (nor an agent record of that id) the name is null: a UI shows the clientId.
    const c = client(emu(), { subject: 'cyd', scope })
    const hc = resourcePresence(c, PATH, 'cnv_1', { name: 'Cyd' })
    await untilStore(hb, (s) => s.viewers.length === 2, 5_000, 'Bob sees Cyd')
    expect(hb.getSnapshot().viewers.find((m) => m.clientId === 'cyd')!.data.name).toBeNull()
    hc.close()
    await untilStore(hb, (s) => s.viewers.length === 1, 5_000, 'Cyd gone')

    ha.setTyping(true)
    await untilStore(hb, (s) => s.typing.length === 1, 5_000, 'Bob sees Ada typing')
    ha.lock({ ttlMs: 30_000 })
    await untilStore(hb, (s) => s.lock !== null, 5_000, 'Bob sees the lock')
    const lock = hb.getSnapshot().lock!
    expect(lock).toMatchObject({ mine: false, holder: { clientId: 'ada' } })
    expect(lock.expiresAt - Date.now()).toBeLessThanOrEqual(30_000)
    ha.subscribe(() => {})
    await untilStore(ha, (s) => s.lock?.mine === true, 5_000, 'Ada holds it')

    // Bob claims too: the earlier claim holds; when Ada lets go, Bob's waiting claim does.
    hb.lock()
    await untilStore(ha, (s) => s.viewers.length === 1 && s.lock?.mine === true)
    ha.unlock()
    await untilStore(hb, (s) => s.lock?.mine === true, 5_000, "Bob's claim holds")
    ha.setTyping(false)
    await untilStore(hb, (s) => s.typing.length === 0)
    ha.close()
    await untilStore(hb, (s) => s.viewers.length === 0, 5_000, 'Ada gone')
    expect(ha.getSnapshot().status).toBe('closed')
  })

  it("a claim on another's lock says it waits, and its place; it holds when the other lets go", async () => {
    const [a, b, c] = ['ada', 'bob', 'cyd'].map((subject) => client(emu(), { subject, scope }))
    const [ha, hb, hc] = [a, b, c].map((x) => resourcePresence(x!, PATH, 'cnv_queue'))
    for (const h of [ha, hb, hc]) h!.subscribe(() => {})
    ha!.lock()
    await untilStore(hb!, (s) => s.lock?.holder.clientId === 'ada', 5_000, 'Bob sees Ada hold it')
    expect(hb!.getSnapshot().waiting).toBeNull()
    // Bob clicks Lock while Ada holds it: his claim waits, first in line; the lock is still Ada's.
    hb!.lock()
    await untilStore(hb!, (s) => s.waiting !== null, 5_000, 'Bob waits')
    expect(hb!.getSnapshot()).toMatchObject({
      waiting: { position: 1 },
      lock: { mine: false, holder: { clientId: 'ada' } },
    })
    // Cyd claims too, for a second: behind Bob, until his claim lapses.
    hc!.lock({ ttlMs: 1_000 })
    await untilStore(hc!, (s) => s.waiting?.position === 2, 5_000, 'Cyd waits behind Bob')
    expect(ha!.getSnapshot()).toMatchObject({ waiting: null, lock: { mine: true } })
    await untilStore(hc!, (s) => s.waiting === null, 5_000, "Cyd's claim lapsed")
    expect(hc!.getSnapshot().lock?.holder.clientId).toBe('ada')
    // Ada lets go: Bob's waiting claim holds the lock.
    ha!.unlock()
    await untilStore(hb!, (s) => s.lock?.mine === true, 5_000, "Bob's claim holds")
    expect(hb!.getSnapshot().waiting).toBeNull()
    for (const h of [ha, hb, hc]) h!.close()
  })

  it('merges every handle of a connection into ONE member, and leaves with the last', async () => {
    const a = client(emu(), { subject: 'ada', scope, profile: { name: 'Ada' } })
    const w = client(emu(), { subject: 'watcher', scope })
    const rows = collectionPresence(w, PATH)
    rows.subscribe(() => {})
    const h1 = resourcePresence(a, PATH, 'cnv_a', { name: 'Ada' })
    const h2 = resourcePresence(a, PATH, 'cnv_b')
    h2.lock()
    await untilStore(rows, (m) => m.has('cnv_a') && m.get('cnv_b')?.lockHolder !== null, 5_000, 'both rows')
    const members = await presence(w.channel(resourcePresenceChannel(PATH))).get()
    expect(members).toHaveLength(1)
    expect(members[0]!.data).toMatchObject({ name: 'Ada', viewing: ['cnv_a', 'cnv_b'], locks: [{ id: 'cnv_b' }] })
    const before = rows.getSnapshot().get('cnv_a')
    h2.close()
    await untilStore(rows, (m) => !m.has('cnv_b'), 5_000, 'cnv_b let go')
    expect(rows.getSnapshot().get('cnv_a')).toBe(before) // a row that did not change keeps its object
    h1.close()
    await untilStore(rows, (m) => m.size === 0, 5_000, 'the member left')
    expect(await presence(w.channel(resourcePresenceChannel(PATH))).get()).toEqual([])
  })

  it('refuses a bad path, id, name, ttl or a resource too many with typed errors', () => {
    const a = client(emu(), { subject: 'ada', scope }, { autoConnect: false })
    const refused = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return isValidationError(e) ? e.field : 'other'
      }
      return 'accepted'
    }
    // @ts-expect-error: not a presence collection
    expect(refused(() => resourcePresence(a, 'support/mailboxes', 'x'))).toBe('path')
    expect(refused(() => resourcePresence(a, PATH, ''))).toBe('id')
    expect(refused(() => resourcePresence(a, PATH, 'x'.repeat(1000)))).toBe('id')
    expect(refused(() => resourcePresence(a, PATH, 'cnv_n', { name: 'Ada\u202e' }))).toBe('name')
    expect(refused(() => resourcePresence(a, PATH, 'cnv_n', { name: 'a'.repeat(201) }))).toBe('name')
    const h = resourcePresence(a, PATH, 'cnv_t')
    expect(refused(() => h.lock({ ttlMs: LOCK_TTL_MAX + 1 }))).toBe('ttlMs')
    expect(refused(() => h.lock({ ttlMs: 0.5 }))).toBe('ttlMs')
    const many = Array.from({ length: MAX_PRESENCE_RESOURCES - 1 }, (_, i) => resourcePresence(a, PATH, `cnv_${i}`))
    expect(refused(() => resourcePresence(a, PATH, 'cnv_over'))).toBe('id')
    expect(refused(() => resourcePresence(a, PATH, 'cnv_t').close())).toBe('accepted') // the same id again is fine
    for (const x of [h, ...many]) x.close()
  })

  it("a crashed agent's lock is released within the presence grace + 1 s", async () => {
    // The crashed client would wait 5 s before reconnecting: it is closed before then, as a dead tab.
    const a = client(
      emu(),
      { subject: 'crash', scope },
      { backoff: { baseMs: 5_000, capMs: 5_000 }, random: () => 0.99 },
    )
    const b = client(emu(), { subject: 'bob', scope })
    const ha = resourcePresence(a, PATH, 'cnv_crash', { name: 'Crash' })
    ha.lock({ ttlMs: LOCK_TTL_MAX })
    const hb = resourcePresence(b, PATH, 'cnv_crash', { name: 'Bob' })
    hb.subscribe(() => {})
    await untilStore(hb, (s) => s.lock?.holder.clientId === 'crash', 5_000, 'the lock seen')
    emu().realtime.dropConnections({ subject: 'crash', raw: true })
    await untilState(a, 'reconnecting')
    a.close()
    // With the member's grace (500 ms), not the lock's ttl (LOCK_TTL_MAX): a bounded wait far under the
    // ttl a lock outliving its holder would keep, whatever the machine's load.
    const grace = options.realtime.presenceGraceMs
    const deadline = Math.min(slack(grace + 1_000), 15_000)
    await untilStore(hb, (s) => s.lock === null && s.viewers.length === 0, deadline, 'the lock released')
  })
})
