// Channel names that are members of Object.prototype. The contract's rule (CHANNEL_NAME: 1–200 of
// A-Z a-z 0-9 _ : . @ -) allows `__proto__`, `constructor`, `toString` and `hasOwnProperty`, so
// they must work like any other: subscribe, publish, receive, presence, a position that survives
// a reconnect and a reload (sessionPositions), and no discontinuity that did not happen. A table
// keyed by channel names that is a plain object turns them into Object's own members.
import { isChannelName } from '@tandem/contract'
import { startEmulator, type Emulator } from '@tandem/emulator'
import type { Discontinuity, Message } from '@tandem/realtime'
import { sessionPositions, type PositionStorage } from '@tandem/realtime/positions'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { realtimeClient, untilState, untilSubscribed } from '../utils/harness.js'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { waitUntil } from '../utils/wait.js'
import { presence } from '@tandem/realtime/presence'

const FILE = 'proto-names'
const SEED = seedFrom(0x9707)
const at = replay(SEED, FILE)
const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ seed: SEED })
})
afterAll(() => emu.close())
beforeEach(() => printSeedOnFailure(SEED, FILE))

/** A page for sessionPositions in Node: its storage, and `pagehide` on globalThis. */
function page() {
  const items = new Map<string, string>()
  const storage: PositionStorage = {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  }
  const target = new EventTarget()
  const g = globalThis as Partial<EventTarget>
  const saved = { add: g.addEventListener, remove: g.removeEventListener }
  g.addEventListener = target.addEventListener.bind(target)
  g.removeEventListener = target.removeEventListener.bind(target)
  return {
    storage,
    items,
    hide: () => target.dispatchEvent(new Event('pagehide')),
    restore() {
      g.addEventListener = saved.add
      g.removeEventListener = saved.remove
    },
  }
}

/** A reader's view of every channel: messages (n = data) and discontinuities. */
function reader(rt: ReturnType<typeof realtimeClient>) {
  const got = new Map<string, number[]>(NAMES.map((n) => [n, []]))
  const gaps: (Discontinuity & { name: string })[] = []
  const offs = NAMES.flatMap((name) => {
    const ch = rt.channel(name)
    return [
      ch.subscribe('n', (m: Message<number>) => void got.get(name)!.push(m.data)),
      ch.on('discontinuity', (d) => void gaps.push({ ...d, name })),
    ]
  })
  const count = (k: number) =>
    waitUntil(() => NAMES.every((n) => got.get(n)!.length >= k), {
      what: `${k} messages on every channel (${NAMES.map((n) => `${n}:${got.get(n)!.length}`).join(' ')}); ${at}`,
    })
  return { got, gaps, count, off: () => offs.forEach((o) => o()) }
}

describe('channel names that are Object.prototype members', () => {
  it('the contract allows them', () => {
    for (const name of NAMES) expect(isChannelName(name), name).toBe(true)
  })

  it('subscribe, publish, receive, presence; positions survive a reconnect and a reload; no false discontinuity', async () => {
    const p = page()
    try {
      const key = 'tandem:realtime:proto'
      const pub = realtimeClient(emu, { url: emu.url, subject: 'pub' })
      const sub = realtimeClient(
        emu,
        { url: emu.url, subject: 'sub' },
        { positions: sessionPositions({ storage: p.storage, key }) },
      )
      const r = reader(sub)
      await untilSubscribed(NAMES.map((n) => sub.channel(n)))
      for (const name of NAMES) expect(sub.channel(name).position, name).toMatchObject({ offset: 0 })
      const publish = (i: number) => Promise.all(NAMES.map((n) => pub.channel(n).publish('n', i)))

      for (let i = 1; i <= 3; i++) await publish(i)
      await r.count(3)
      for (const name of NAMES) {
        expect(sub.channel(name).position, name).toEqual({ epoch: expect.any(String), offset: 3 })
        const members = await presence(sub.channel(name)).get()
        expect(Array.isArray(members), name).toBe(true)
      }
      await presence(sub.channel('constructor')).enter({ who: 'sub' })
      expect(
        (await presence(pub.channel('constructor')).get()).map((m) => m.clientId),
        at,
      ).toContain('sub')

      // A reconnect: the socket dies, the client resumes each channel from its position.
      emu.realtime.dropConnections({ subject: 'sub', raw: true })
      await publish(4)
      await untilState(sub, 'connected')
      await publish(5)
      await r.count(5)

      // A reload: pagehide writes every position; the next client of the page resumes from them.
      p.hide()
      const stored = JSON.parse(p.items.get(key)!) as { channels: Record<string, { offset: number }> }
      for (const name of NAMES)
        expect(Object.getOwnPropertyDescriptor(stored.channels, name)?.value, name).toMatchObject({ offset: 5 })
      r.off()
      sub.close()
      await publish(6)
      const next = realtimeClient(
        emu,
        { url: emu.url, subject: 'sub' },
        { positions: sessionPositions({ storage: p.storage, key }) },
      )
      for (const name of NAMES)
        expect(next.channel(name).position, name).toEqual({ epoch: expect.any(String), offset: 5 })
      const again = reader(next)
      await again.count(1)
      await publish(7)
      await again.count(2)

      for (const name of NAMES) {
        expect(r.got.get(name), `${name}: 1..5 once, in order; ${at}`).toEqual([1, 2, 3, 4, 5])
        expect(again.got.get(name), `${name}: 6 and 7 after the reload; ${at}`).toEqual([6, 7])
      }
      expect([...r.gaps, ...again.gaps], `no discontinuity; ${at}`).toEqual([])
      again.off()
      pub.close()
      next.close()
    } finally {
      p.restore()
    }
  })
})
