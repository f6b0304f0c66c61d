// A `"__proto__"` key in service data. JSON.parse makes it an own data property like any other
// key, so an item whose `attributes` hold `{ "__proto__": { "isAdmin": true } }` has a key named
// `__proto__` and nothing inherited. Every copy the SDK makes of service data (structural sharing
// across refetches, a live list patched by a channel message, an optimistic update merged into the
// cache) must keep it that way: `attributes.isAdmin` is never inherited from what the service sent.
// The emulator stores the key as it is given (its answers are JSON.stringify of JSON.parse).
import {
  bindLiveResources,
  createClient,
  createMutation,
  listQuery,
  type ServiceResource,
  type TandemClient,
} from '@tandem/core'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { createRealtime, type Realtime } from '@tandem/realtime'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { waitUntil } from '../utils/wait.js'

const FILE = 'proto-keys'
const SEED = seedFrom(0x9708)
const at = replay(SEED, FILE)
const HOSTILE =
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},"prototype":1,"tier":"gold"}'

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ seed: SEED })
})
afterAll(() => emu.close())
beforeEach(() => printSeedOnFailure(SEED, FILE))

const query = listQuery('support/resources', { limit: 10 })

function client(subject: string): TandemClient {
  const auth = {
    fetchToken: async () => ({ token: await emu.mintToken({ subject, scope: ['*'] }), expiresIn: 600 }),
  }
  return createClient({ baseUrl: emu.url, auth, services: { support: { rateLimit: false } } })
}

/** Sets an item's attributes to the hostile JSON, as raw text: what any other client could send. */
async function plant(id: string, extra: Record<string, unknown> = {}): Promise<string> {
  const token = await emu.mintToken({ subject: 'mallory', scope: ['*'] })
  const more = JSON.stringify(extra).slice(1, -1)
  const body = `{"attributes":${HOSTILE.slice(0, -1)}${more ? `,${more}` : ''}}}`
  const res = await fetch(`${emu.url}/support/v1/resources/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  })
  expect(res.status, at).toBe(200)
  return body
}

/** What the app must read: exactly what JSON.parse gives for the attributes the service holds. */
function expectAsParsed(attributes: unknown, what: string) {
  const parsed = JSON.parse(HOSTILE) as Record<string, unknown>
  const a = attributes as Record<string, unknown>
  expect(Object.getPrototypeOf(a), `${what}: prototype; ${at}`).toBe(Object.prototype)
  expect(a.isAdmin, `${what}: isAdmin not inherited; ${at}`).toBeUndefined()
  expect(Object.getOwnPropertyDescriptor(a, '__proto__')?.value, `${what}: own __proto__; ${at}`).toEqual({
    isAdmin: true,
  })
  // `obj.__proto__` reads the own key, as on what JSON.parse gives.
  expect(a.__proto__, `${what}: a.__proto__; ${at}`).toEqual(
    Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value,
  )
  expect(a.constructor, `${what}: own constructor; ${at}`).toEqual(parsed.constructor)
  expect(
    Object.keys(a).filter((k) => Object.hasOwn(parsed, k)),
    `${what}: keys; ${at}`,
  ).toEqual(Object.keys(parsed))
  expect(JSON.stringify(a), `${what}: JSON; ${at}`).toContain(HOSTILE.slice(1, -1))
  expect(({} as Record<string, unknown>).isAdmin, `Object.prototype stays clean; ${at}`).toBeUndefined()
}

const attributesOf = (c: TandemClient, id: string) =>
  (c.cache.get(query).getSnapshot().items as ServiceResource[]).find((x) => x.id === id)?.attributes

describe('"__proto__" keys in service data', () => {
  it('a cached list refetched twice keeps the key an own property, nothing inherited', async () => {
    const c = client('reader-1')
    const entry = c.cache.get(query)
    const off = entry.subscribe(() => undefined)
    await waitUntil(() => entry.getSnapshot().status === 'success' && !entry.getSnapshot().isFetching)
    const id = entry.getSnapshot().items[0]!.id
    await plant(id)
    await entry.refetch()
    expectAsParsed(attributesOf(c, id), 'first refetch')
    await plant(id, { round: 2 }) // a change, so the second refetch builds a new copy over the first
    await entry.refetch()
    expectAsParsed(attributesOf(c, id), 'second refetch')
    expect((attributesOf(c, id) as { round?: number }).round, at).toBe(2)
    off()
    c.cache.clear()
  })

  it('a live list patched by a channel message keeps it too', async () => {
    const c = client('reader-2')
    const rt: Realtime = createRealtime({ client: c }, { WebSocket })
    try {
      const entry = c.cache.get(query)
      const off = entry.subscribe(() => undefined)
      const unbind = bindLiveResources(rt, c.cache, query)
      await waitUntil(() => rt.channel('support:resources').state === 'subscribed', { what: 'channel subscribed' })
      await waitUntil(() => entry.getSnapshot().status === 'success' && !entry.getSnapshot().isFetching)
      const id = entry.getSnapshot().items[1]!.id
      let gets = 0
      c.on('request', (r) => void (r.method === 'GET' && gets++))
      await plant(id, { live: true })
      await waitUntil(() => (attributesOf(c, id) as { live?: boolean } | undefined)?.live === true, {
        what: `the live list patched; ${at}`,
      })
      expect(gets, `patched by the message, not a refetch; ${at}`).toBe(0)
      expectAsParsed(attributesOf(c, id), 'live patch')
      unbind()
      off()
    } finally {
      rt.close()
      c.cache.clear()
    }
  })

  it('an optimistic update merged into the cache keeps it too', async () => {
    const c = client('reader-3')
    const entry = c.cache.get(query)
    const off = entry.subscribe(() => undefined)
    await waitUntil(() => entry.getSnapshot().status === 'success' && !entry.getSnapshot().isFetching)
    const id = entry.getSnapshot().items[2]!.id
    // The patch as the app got it: JSON from a form, a paste, another service.
    const patch = JSON.parse(`{"attributes":${HOSTILE}}`) as { attributes: Record<string, unknown> }
    const mutation = createMutation(c.cache, (p: typeof patch) => c.support.resources.update(id, p), {
      onMutate: (p) =>
        c.cache.setData(query, (d) => ({
          pages: d!.pages.map((page) => ({
            ...page,
            data: page.data.map((x) => (x.id === id ? { ...x, attributes: { ...x.attributes, ...p.attributes } } : x)),
          })),
        })),
    })
    const done = mutation.mutate(patch)
    expectAsParsed(attributesOf(c, id), 'optimistic')
    await done
    await entry.refetch()
    expectAsParsed(attributesOf(c, id), 'after the write')
    off()
    c.cache.clear()
  })
})
