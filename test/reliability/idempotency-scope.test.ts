// Idempotency keys per principal (issue 43, row 7). Keys were kept per app for agents, so agent Y
// reusing agent X's key on the same path got X's thread replayed (`author agt_x`, 201
// `Idempotent-Replayed: true`) and Y's note was never stored. Now every key is scoped to the app
// and the token's subject (`key:<keyId>` for a raw key): X and Y each get their own write, and the
// same principal repeating still gets its replay. Two agents of one app through the public SDK,
// and raw fetch to read the replay header, against the emulator on 127.0.0.1.
import { createClient, type TandemClient } from '@tandem/core'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterEach, describe, expect, it } from 'vitest'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'

const FILE = 'idempotency-scope'
const SEED = seedFrom(0x1d3)
const at = replay(SEED, FILE)

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

const agentClient = (emu: Emulator, subject: string): TandemClient =>
  createClient({
    baseUrl: emu.url,
    auth: { fetchToken: async () => ({ token: await emu.mintToken({ subject }), expiresIn: 600 }) },
  })

describe('idempotency keys are per principal', () => {
  it("agent Y reusing agent X's key stores Y's note, authored by Y; X repeating gets its replay", async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await startEmulator({ seed: SEED })
    cleanups.push(() => emu.close())
    const x = agentClient(emu, 'agt_x')
    const y = agentClient(emu, 'agt_y')
    const [conversation] = (await x.support.conversations.list({ limit: 1 })).data
    if (!conversation) throw new Error(`no conversation; ${at}`)
    const key = 'note-the-same-key'

    // Through the SDK: each agent's note with the same key, on the same path.
    const fromX = await x.support.conversations.note(conversation.id, { text: 'From X' }, { idempotencyKey: key })
    const fromY = await y.support.conversations.note(conversation.id, { text: 'From Y' }, { idempotencyKey: key })
    expect(fromY, `Y's answer; ${at}`).toMatchObject({ text: 'From Y', author: { id: 'agt_y' } })
    expect(fromY.id).not.toBe(fromX.id)

    // Raw, to read the replay mark: Y's key is Y's (a different body is no 422 and no replay of X's)…
    const send = async (subject: string, text: string, sameKey = `${key}-raw`) => {
      const res = await fetch(`${emu.url}/support/v1/conversations/${conversation.id}/notes`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await emu.mintToken({ subject })}`,
          'content-type': 'application/json',
          'idempotency-key': sameKey,
        },
        body: JSON.stringify({ text }),
      })
      return {
        status: res.status,
        replayed: res.headers.get('idempotent-replayed'),
        body: (await res.json()) as unknown,
      }
    }
    const rawX = await send('agt_x', 'Raw from X')
    const rawY = await send('agt_y', 'Raw from Y')
    expect(rawY, `Y after X with one key; ${at}`).toMatchObject({
      status: 201,
      replayed: null,
      body: { text: 'Raw from Y', author: { id: 'agt_y' } },
    })
    // …and X repeating its own write gets its own answer back, applied once.
    const again = await send('agt_x', 'Raw from X')
    expect(again, `X repeating; ${at}`).toMatchObject({ status: 201, replayed: 'true', body: rawX.body })
    // The same body too (what the issue saw: X's thread replayed to Y, Y's note never stored).
    await send('agt_x', 'Same text', `${key}-same`)
    const sameFromY = await send('agt_y', 'Same text', `${key}-same`)
    expect(sameFromY, `Y sending X's very request; ${at}`).toMatchObject({
      status: 201,
      replayed: null,
      body: { text: 'Same text', author: { id: 'agt_y' } },
    })

    const threads = await x.support.conversations.threads(conversation.id, { limit: 100 })
    const notes = threads.data.filter((t) => t.type === 'note').map((t) => `${t.author.id}: ${t.text}`)
    expect(notes.slice(-6), `the notes stored; ${at}`).toEqual([
      'agt_x: From X',
      'agt_y: From Y',
      'agt_x: Raw from X',
      'agt_y: Raw from Y',
      'agt_x: Same text',
      'agt_y: Same text',
    ])
  })

  it("a token whose subject reads like the raw key's (`key:key_dev`) is someone else", async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await startEmulator({ seed: SEED })
    cleanups.push(() => emu.close())
    const [conversation] = (await agentClient(emu, 'agt_x').support.conversations.list({ limit: 1 })).data
    if (!conversation) throw new Error(`no conversation; ${at}`)
    const send = async (authorization: string) => {
      const res = await fetch(`${emu.url}/support/v1/conversations/${conversation.id}/notes`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', 'idempotency-key': 'one-key' },
        body: JSON.stringify({ text: 'The same note' }),
      })
      return { status: res.status, replayed: res.headers.get('idempotent-replayed') }
    }
    const { id, secret } = emu.apps[0]!.keys[0]!
    expect(await send(`Bearer ${id}:${secret}`), `the raw key; ${at}`).toEqual({ status: 201, replayed: null })
    const lookalike = await emu.mintToken({ subject: `key:${id}` })
    expect(await send(`Bearer ${lookalike}`), `a token whose subject is key:${id}; ${at}`).toEqual({
      status: 201,
      replayed: null,
    })
  })
})
