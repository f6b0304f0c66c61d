// @vitest-environment happy-dom
// Resume after a reload (positions: sessionPositions()): the page goes away (pagehide) mid-stream, messages keep
// coming, the next client of the tab resumes every channel from where the last one delivered:
// nothing lost, nothing twice, presence kept. Against the emulator over real WebSockets; the
// page's sessionStorage and pagehide are happy-dom's.
import { afterEach, describe, expect, it } from 'vitest'
import type { Member } from '../../types.js'
import { sessionPositions, type PositionsFactory } from '../../messages/positions.js'
import { client, collect, untilState, untilSubscribed, useEmulator } from '../helpers.js'
import { presence } from '../../presence/presence.js'

const emu = useEmulator()
const KEY = (s: string) => `tandem:realtime:test:${s}`
afterEach(() => sessionStorage.clear())

describe('sessionPositions: resume after a reload', () => {
  it('a reloaded page resumes every channel with no gap and no duplicate, and keeps its presence', async () => {
    const key = KEY('reload')
    const pub = client(emu(), { subject: 'pub' })
    const watcher = client(emu(), { subject: 'watcher' })
    const names = ['r:a', 'r:b', 'r:c']
    const before = client(emu(), { subject: 'reader' }, { positions: sessionPositions({ key }) })
    const got = names.map((n) => collect(before, n))
    await Promise.all(names.map((n) => untilSubscribed(before.channel(n))))
    await presence(before.channel('r:a')).enter({ name: 'Reader' })
    const left: Member[] = []
    presence(watcher.channel('r:a')).subscribe((e) => void (e.action === 'leave' && left.push(e.member)))
    await untilSubscribed(watcher.channel('r:a'))

    for (let i = 1; i <= 5; i++) await Promise.all(names.map((n) => pub.channel(n).publish('n', i)))
    await Promise.all(got.map((g) => g.count(5)))
    const connectionId = before.connectionId

    // The page goes away: pagehide, then its socket dies with it (no goodbye).
    window.dispatchEvent(new Event('pagehide'))
    expect(JSON.parse(sessionStorage.getItem(key)!)).toMatchObject({
      v: 1,
      connectionId,
      channels: { 'r:a': { offset: 5 }, 'r:b': { offset: 5 }, 'r:c': { offset: 5 } },
    })
    emu().realtime.dropConnections({ subject: 'reader', raw: true })
    before.close() // a page that is gone writes nothing more
    window.dispatchEvent(new Event('pagehide'))
    expect(JSON.parse(sessionStorage.getItem(key)!).channels['r:a'].offset).toBe(5)
    for (const g of got) g.off()
    for (let i = 6; i <= 10; i++) await Promise.all(names.map((n) => pub.channel(n).publish('n', i)))

    // The reloaded page: a new client, the same tab's storage.
    const after = client(emu(), { subject: 'reader' }, { positions: sessionPositions({ key }) })
    expect(sessionStorage.getItem(key)).toBeNull() // read once, removed: a duplicated tab finds nothing
    const again = names.map((n) => collect(after, n))
    await Promise.all(again.map((g) => g.count(5)))
    for (let i = 11; i <= 12; i++) await Promise.all(names.map((n) => pub.channel(n).publish('n', i)))
    await Promise.all(again.map((g) => g.count(7)))
    for (const g of again) {
      expect(g.messages.map((m) => m.data)).toEqual([6, 7, 8, 9, 10, 11, 12])
      expect(g.messages.map((m) => m.offset)).toEqual([6, 7, 8, 9, 10, 11, 12])
    }
    await untilState(after, 'connected')
    expect(after.connectionId).toBe(connectionId) // the service's session, resumed
    expect(left).toEqual([]) // no leave/enter flicker for the others
    after.close()
  })

  it('without the option nothing is written; a malformed entry is ignored, not trusted', async () => {
    const plain = client(emu(), { subject: 'plain' })
    const g = collect(plain, 'p:a')
    await untilSubscribed(plain.channel('p:a'))
    window.dispatchEvent(new Event('pagehide'))
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('tandem:realtime:'))).toEqual([])
    g.off()

    const key = KEY('bad')
    sessionStorage.setItem(
      key,
      JSON.stringify({ v: 1, connectionId: 42, channels: { 'p:a': { epoch: '', offset: -1 } } }),
    )
    const pub = client(emu(), { subject: 'pub' })
    await pub.channel('p:a').publish('n', 'old')
    const rt = client(emu(), { subject: 'plain' }, { positions: sessionPositions({ key }) })
    const fresh = collect(rt, 'p:a')
    await untilSubscribed(rt.channel('p:a'))
    await pub.channel('p:a').publish('n', 'new')
    await fresh.count(1)
    expect(fresh.messages.map((m) => m.data)).toEqual(['new']) // subscribed fresh: no replay from a bad position
  })

  it('a custom factory written for plain-object channels still resumes (malformed entries skipped)', async () => {
    const first = client(emu(), { subject: 'legacy' })
    const got = collect(first, 'p:legacy')
    await untilSubscribed(first.channel('p:legacy'))
    const pub = client(emu(), { subject: 'pub' })
    await pub.channel('p:legacy').publish('n', 'one')
    await got.count(1)
    const position = first.channel('p:legacy').position
    first.close()
    await pub.channel('p:legacy').publish('n', 'two')
    // The shape `Saved.channels` had before it became a Map.
    const channels = { 'p:legacy': position, 'p:bad': { epoch: 5 } }
    const legacy = (() => ({ saved: { channels }, attach() {}, detach() {} })) as unknown as PositionsFactory
    const rt = client(emu(), { subject: 'legacy' }, { positions: legacy })
    const resumed = collect(rt, 'p:legacy')
    await resumed.count(1)
    expect(resumed.messages.map((m) => m.data)).toEqual(['two']) // replayed from the saved position
  })

  it('sessionPositions outside a page needs a storage: a ValidationError, not a silent no-op', () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'sessionStorage')
    Object.defineProperty(globalThis, 'sessionStorage', { value: undefined, configurable: true })
    try {
      expect(() => sessionPositions()).toThrow(expect.objectContaining({ name: 'ValidationError', field: 'storage' }))
    } finally {
      if (saved) Object.defineProperty(globalThis, 'sessionStorage', saved)
    }
  })
})
