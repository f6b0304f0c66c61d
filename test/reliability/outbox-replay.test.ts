// A durable outbox replays what storage holds, and storage is not trusted: an extension, another
// app version or a person with the browser profile can write it. A stored write whose path was
// tampered to `/v1/conversations/../../../dev/token` was sent, resolved by URL parsing to
// `POST /dev/token`, with the user's token. Every stored entry is now checked against the
// contract on every read and before every send: a write that is none of the contract's is never
// sent, it is refused (a ValidationError naming the field) and the stored list is written again
// without it. Requests are counted where they arrive: on the emulator's own server.
import type { IncomingMessage } from 'node:http'
import { createClient, isValidationError, type TandemError } from '@tandem/core'
import { durableOutbox, memoryStorage, type OutboxEntry } from '@tandem/core/persist'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { waitUntil } from '../utils/wait.js'

const FILE = 'outbox-replay'
const SEED = seedFrom(0x9713)
const at = replay(SEED, FILE)

let emu: Emulator
const arrived: string[] = []
const count = (req: IncomingMessage) => void arrived.push(`${req.method} ${req.url}`)
beforeAll(async () => {
  emu = await startEmulator({ seed: SEED })
  emu.server.on('request', count)
})
afterAll(() => emu.close())
beforeEach(() => printSeedOnFailure(SEED, FILE))

let n = 0
/** A stored entry as the outbox writes one; `over` replaces any field. */
function rest(request: Record<string, unknown>, over: Record<string, unknown> = {}) {
  n++
  return {
    id: `tampered_${n}`,
    kind: 'rest',
    lane: 'support /v1/conversations',
    idempotencyKey: `key-${n}-${SEED}`,
    createdAt: Date.now() - 60_000,
    attempts: 0,
    bytes: 100,
    request: { service: 'support', method: 'POST', ...request },
    ...over,
  }
}
function publish(p: Record<string, unknown>) {
  n++
  const idempotencyKey = `pub-${n}-${SEED}`
  return {
    id: `tampered_${n}`,
    kind: 'publish',
    lane: 'realtime chat:lobby',
    idempotencyKey,
    createdAt: Date.now() - 60_000,
    attempts: 0,
    bytes: 100,
    publish: { channel: 'chat:lobby', event: 'message', data: { text: 'hi' }, idempotencyKey, ...p },
  }
}

describe('a replayed outbox entry is checked against the contract', () => {
  it('tampered entries are never sent, each is refused with why, dropped from storage; the good one goes', async () => {
    const auth = {
      fetchToken: async () => ({ token: await emu.mintToken({ subject: 'agent_7', scope: ['*'] }), expiresIn: 600 }),
    }
    const reader = createClient({ baseUrl: emu.url, auth })
    const [conversation] = (await reader.support.conversations.list({ limit: 1 })).data
    const c = conversation!.id
    const good = rest({ path: `/v1/conversations/${c}/reply`, body: { text: 'the good one' } })
    const bad = {
      'request.path': [
        rest({ path: '/v1/conversations/../../../dev/token', body: {} }),
        rest({ path: '/v1/conversations/%2e%2e/reply', body: { text: 'x' } }),
        rest({ path: `/v1/conversations/${c}/reply?admin=1`, body: { text: 'x' } }),
        rest({ path: `/v1/conversations/${c}/reply#x`, body: { text: 'x' } }),
        rest({ path: `/v1/conversations/${c}/reply/`, body: { text: 'x' } }),
        rest({ path: '/dev/token', body: {} }),
        rest({ path: `/v1/conversations/${c}`, method: 'GET' }),
        rest({ path: `/v1/conversations/${c}`, method: 'PUT', body: {} }),
        rest({ service: 'evil', path: '/v1/resources', body: { name: 'x' } }),
        rest({ service: 'maps', path: '/v1/geocode', body: { query: 'x' } }),
      ],
      'request.body': [
        rest({ path: `/v1/conversations/${c}`, method: 'PATCH', body: 'closed' }),
        rest({ path: `/v1/conversations/${c}/reply`, body: [{ text: 'x' }] }),
        rest({ path: `/v1/conversations/${c}/reply` }),
        rest({ path: `/v1/resources/res_sup_1`, method: 'DELETE', body: { x: 1 } }),
      ],
      'request.headers': [
        rest({
          path: `/v1/conversations/${c}/reply`,
          body: { text: 'x' },
          headers: { Authorization: 'Bearer stolen' },
        }),
      ],
      'request.query': [rest({ path: `/v1/conversations/${c}/reply`, body: { text: 'x' }, query: { a: { b: 1 } } })],
      idempotencyKey: [rest({ path: `/v1/conversations/${c}/reply`, body: { text: 'x' } }, { idempotencyKey: 'a b' })],
      attempts: [rest({ path: `/v1/conversations/${c}/reply`, body: { text: 'x' } }, { attempts: Number.NaN })],
      'publish.channel': [publish({ channel: '..' }), publish({ channel: 'a/b' })],
      'publish.event': [publish({ event: 'e'.repeat(201) })],
      'publish.idempotencyKey': [publish({ idempotencyKey: 'another' })],
    }
    const expected = Object.entries(bad).flatMap(([field, entries]) => entries.map((e) => [e.id, field]))
    const storage = memoryStorage()
    const tampered = [...Object.values(bad).flat(), good, { id: 'no entry at all' }, null, 42]
    await storage.set('tamper:outbox', { v: 1, entries: tampered })

    const outbox = durableOutbox({ key: 'tamper', storage })
    const refused: { entry: OutboxEntry; error: TandemError }[] = []
    const applied: string[] = []
    outbox.on('refused', (r) => void refused.push(r))
    outbox.on('applied', ({ entry }) => void applied.push(entry.id))
    arrived.length = 0
    createClient({ baseUrl: emu.url, auth, outbox })
    await outbox.ready
    await waitUntil(() => applied.length === 1 && outbox.getSnapshot().entries.length === 0, {
      what: `the good entry applied; ${at}`,
    })

    // What reached the emulator: the good reply, once; nothing of the tampered ones.
    const posts = arrived.filter((r) => !r.startsWith('GET '))
    console.log(`[outbox-replay] ${tampered.length} stored, ${refused.length} refused, arrived: ${posts.join(', ')}`)
    expect(posts, at).toEqual([`POST /support/v1/conversations/${c}/reply`])
    expect(
      arrived.filter((r) => r.includes('/dev/token')),
      at,
    ).toEqual([])
    expect(applied, at).toEqual([good.id])

    // Each tampered entry refused once, typed, naming what is wrong.
    expect(
      refused.map((r) => [r.entry.id, (r.error as { field?: string }).field]),
      at,
    ).toEqual(expected)
    for (const { error } of refused) {
      expect(isValidationError(error), at).toBe(true)
      expect(error.code, at).toBe('validation_error')
      expect(error.message, at).not.toContain('stolen')
    }

    // Storage holds none of them any more (the list, in the format before per-write records, was moved
    // to one record per write, then each bad one dropped): the next page meets nothing to refuse.
    expect(await storage.get('tamper:outbox'), at).toBeUndefined()
    expect(
      (await storage.keys!()).filter((k) => String(k).startsWith('tamper:')),
      at,
    ).toEqual(['tamper:session'])
    outbox.stop()
    const next = durableOutbox({ key: 'tamper', storage })
    const again: unknown[] = []
    next.on('refused', (r) => void again.push(r))
    await next.ready
    expect(again, at).toEqual([])
    next.stop()
  })

  it('an entry another tab announces is checked too: a tampered one is never shown or sent', async () => {
    const posted: ((m: { data: unknown }) => void)[] = []
    class Channel {
      onmessage: ((e: { data: unknown }) => void) | null = null
      constructor() {
        posted.push((m) => this.onmessage?.(m))
      }
      postMessage() {}
      close() {}
    }
    const outbox = durableOutbox({ key: 'announce', storage: memoryStorage(), BroadcastChannel: Channel })
    await outbox.ready
    const added = rest({ path: '/v1/conversations/../../../dev/token', body: {} })
    for (const deliver of posted) deliver({ data: { t: 'outbox', added } })
    expect(outbox.getSnapshot().entries, at).toEqual([])
    outbox.stop()
  })
})
