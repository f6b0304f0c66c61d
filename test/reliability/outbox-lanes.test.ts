// A durable outbox's lanes are per resource (docs/persist.md, "In order per lane"): a customer's
// message to conversation B must not wait behind conversation A's failures. A hostile front for
// the emulator answers 503 to every write to A until told otherwise and forwards everything else;
// the customer writes to A, then to B. B must settle while A is still held, and once A's
// service is back A is applied too, each exactly once.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from '@tandem/core'
import { messenger } from '@tandem/core/messenger'
import { durableOutbox, memoryStorage, type OutboxEntry } from '@tandem/core/persist'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { waitUntil, within } from '../utils/wait.js'

const FILE = 'outbox-lanes'
const SEED = seedFrom(0x9710)
const at = replay(SEED, FILE)

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ seed: SEED })
})
afterAll(() => emu.close())
beforeEach(() => printSeedOnFailure(SEED, FILE))

/** In front of the emulator: 503 for every write whose path `blocked` matches, the rest forwarded. */
async function hostileFront(target: string, blocked: (method: string, path: string) => boolean) {
  const refused: string[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!
      if (blocked(req.method ?? 'GET', path)) {
        refused.push(`${req.method} ${path}`)
        res.writeHead(503, { 'content-type': 'application/json', 'x-request-id': `req_503_${refused.length}` })
        res.end(JSON.stringify({ error: { code: 'unavailable', message: 'A is down', requestId: 'req_503' } }))
        return
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host' && k !== 'connection'),
      ) as Record<string, string>
      const body = chunks.length ? Buffer.concat(chunks) : undefined
      fetch(target + req.url, { method: req.method, headers, body }).then(
        async (answer) => {
          const out: Record<string, string> = {}
          answer.headers.forEach((v, k) => k !== 'content-encoding' && k !== 'transfer-encoding' && (out[k] = v))
          const text = Buffer.from(await answer.arrayBuffer())
          res.writeHead(answer.status, { ...out, 'content-length': String(text.length) })
          res.end(text)
        },
        () => res.destroy(),
      )
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, refused, close: () => new Promise<void>((r) => server.close(() => r())) }
}

describe('durable outbox lanes', () => {
  it('a customer’s message to B settles while A’s lane is held by 503s', async () => {
    const subject = 'cus_lanes'
    const auth = {
      fetchToken: async () => ({
        token: await emu.mintToken({ subject, scope: ['support:customer'] }),
        expiresIn: 600,
      }),
    }
    // Two conversations of the customer, made directly.
    const direct = messenger(createClient({ baseUrl: emu.url, auth }))
    const a = await direct.conversations.start({ text: 'A: my invoice' })
    const b = await direct.conversations.start({ text: 'B: my address' })
    let aDown = true
    const front = await hostileFront(emu.url, (method, path) => aDown && method === 'POST' && path.includes(a.id))
    const outbox = durableOutbox({ key: 'lanes', storage: memoryStorage(), random: () => 0.5 })
    const client = createClient({ baseUrl: front.url, auth, outbox, retry: false })
    const desk = messenger(client)
    try {
      const lanes: string[] = []
      outbox.on('queued', (e: OutboxEntry) => void lanes.push(e.lane))
      const started = Date.now()
      const settled: Record<string, number> = {}
      const toA = desk.conversations.reply(a.id, { text: 'A: second message' })
      void toA.then(
        () => (settled.a = Date.now() - started),
        () => undefined, // stopped: the test reads it below
      )
      await waitUntil(() => front.refused.length >= 1, { what: `A refused once by the front; ${at}` })
      const toB = desk.conversations.reply(b.id, { text: 'B: second message' })
      void toB.then(
        () => (settled.b = Date.now() - started),
        () => undefined, // stopped: the test reads it below
      )
      await waitUntil(() => lanes.length === 2, { what: `B stored; ${at}` })
      expect(lanes, at).toEqual([`support /v1/me/conversations/${a.id}`, `support /v1/me/conversations/${b.id}`])

      // B goes on its own lane: it is applied while A still waits out its 503s.
      expect((await within(toB, 10_000, `B settled while A is held; ${at}`)).text, at).toBe('B: second message')
      expect(settled.a, `A still held when B settled; ${at}`).toBeUndefined()
      const heldA = outbox.getSnapshot().entries
      expect(
        heldA.map((e) => e.lane),
        at,
      ).toEqual([`support /v1/me/conversations/${a.id}`])
      console.log(`[outbox-lanes] B settled at ${settled.b} ms; A refused ${front.refused.length}× by then, still held`)

      aDown = false
      expect((await within(toA, 20_000, `A applied once its service is back; ${at}`)).text, at).toBe(
        'A: second message',
      )
      const texts = async (id: string) =>
        (await direct.conversations.messages(id, { limit: 100 })).data.map((m) => m.text)
      expect(await texts(a.id), at).toEqual(['A: my invoice', 'A: second message'])
      expect(await texts(b.id), at).toEqual(['B: my address', 'B: second message'])
      expect(outbox.getSnapshot().entries, at).toEqual([])
    } finally {
      outbox.stop()
      await front.close()
    }
  })
})
