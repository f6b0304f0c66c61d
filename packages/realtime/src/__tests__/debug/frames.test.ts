import { afterEach, describe, expect, it, vi } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { ValidationError } from '../../core.js'
import { watchFrames, type FrameEvent } from '../../debug.js'
import type { Realtime } from '../../index.js'
import { client, untilState, untilSubscribed, useEmulator } from '../helpers.js'
import { connected, hostileClient, hostileServer } from '../hostile-server.js'

// watchFrames (@tandem/realtime/debug, what the devtools' frames view reads): every frame in and
// out, with no token.

const emu = useEmulator()
afterEach(() => {
  vi.unstubAllGlobals()
})

/** Every frame of `rt` from now on. */
function frames(rt: Realtime) {
  const seen: FrameEvent[] = []
  const off = watchFrames(rt, (e) => seen.push(e))
  return { seen, off }
}

describe('watchFrames', () => {
  it('a publish goes out and its ack comes in, each with its channel and size', async () => {
    const rt = client(emu())
    const { seen } = frames(rt)
    const ch = rt.channel('frames:one')
    const off = ch.subscribe(() => {})
    await untilSubscribed(ch)
    const started = Date.now()
    const ack = await ch.publish('note', { text: 'hi' })

    const publish = seen.find((e) => e.type === 'publish')!
    expect(publish).toMatchObject({
      direction: 'out',
      channel: 'frames:one',
      frame: { type: 'publish', channel: 'frames:one', event: 'note', data: { text: 'hi' } },
    })
    expect(publish.size).toBe(JSON.stringify(publish.frame).length) // nothing redacted in it: the same text
    expect(publish.at).toBeGreaterThanOrEqual(started)
    const reply = seen.find((e) => e.direction === 'in' && e.type === 'ack')!
    expect(reply.frame).toMatchObject({ id: publish.frame.id, offset: ack.offset, epoch: ack.epoch })
    expect(reply.channel).toBe('frames:one') // the emulator's ack names it
    expect(reply.size).toBeGreaterThan(20)
    // The message itself comes back on the channel, in.
    await waitUntil(() => seen.some((e) => e.type === 'message'), { what: 'the message frame' })
    expect(seen.find((e) => e.type === 'message')).toMatchObject({ direction: 'in', channel: 'frames:one' })
    // The handshake is there too, in order: connect out, connected in.
    expect(seen.slice(0, 2).map((e) => `${e.direction} ${e.type}`)).toEqual(['out connect', 'in connected'])
    off()
  })

  it('no token reaches a listener: not the connect, not an in-band refresh, not one in app data', async () => {
    const tokens: string[] = []
    // The client believes its tokens live 2 s: it refreshes in band (an `auth` frame) within ~1 s.
    const rt = client(emu(), {
      expiresIn: 2,
      fetchToken: async () => {
        tokens.push(await emu().mintToken({ subject: 'frames' }))
        return { token: tokens.at(-1)!, expiresIn: 2 }
      },
    })
    const { seen } = frames(rt)
    const ch = rt.channel('frames:secret')
    const off = ch.subscribe(() => {})
    await untilSubscribed(ch)
    await waitUntil(() => seen.some((e) => e.type === 'authed'), {
      on: (cb) => watchFrames(rt, cb),
      what: 'an in-band refresh answered',
    })
    await ch.publish('leak', { note: `Bearer ${tokens[0]}`, jwt: tokens[0], accessToken: 'plain-secret' })
    await waitUntil(() => seen.some((e) => e.type === 'message'), { what: 'the message frame' })

    expect(tokens.length).toBeGreaterThanOrEqual(2)
    expect(seen.filter((e) => e.type === 'connect' || e.type === 'auth').map((e) => e.frame.token)).toEqual([
      '[redacted]',
      '[redacted]',
    ])
    const text = JSON.stringify(seen)
    for (const token of tokens) expect(text).not.toContain(token)
    expect(text).not.toContain('plain-secret')
    // App data keeps its shape; only the credentials in it go.
    expect(seen.find((e) => e.type === 'publish')!.frame.data).toEqual({
      note: 'Bearer [redacted]',
      jwt: '[redacted]',
      accessToken: '[redacted]',
    })
    off()
  })

  it('a frame the client refused is `unparsed`, its content not shown; a token-named field at any depth is redacted', async () => {
    const server = await hostileServer({
      connect(peer, frame) {
        connected(peer, frame)
        peer.send({ type: 'bogus', token: 'raw-token-2' })
        peer.send({ type: 'error', error: { code: 'odd', message: 'odd', detail: { token: 'raw-token-1' } } })
      },
    })
    const rt = hostileClient(server)
    const { seen } = frames(rt)
    rt.on('error', () => {})
    rt.connect()
    await untilState(rt, 'connected')
    await waitUntil(() => seen.some((e) => e.type === 'error'), { what: 'the error frame' })
    // Non-JWT tokens (`tok_1`): only the field's name gives them away.
    expect(seen[0]).toMatchObject({ direction: 'out', type: 'connect', frame: { token: '[redacted]' } })
    expect(seen.find((e) => e.type === 'unparsed')).toEqual({
      direction: 'in',
      type: 'unparsed',
      size: JSON.stringify({ type: 'bogus', token: 'raw-token-2' }).length,
      frame: {},
      at: expect.any(Number),
    })
    expect(seen.find((e) => e.type === 'error')!.frame).toMatchObject({ error: { detail: { token: '[redacted]' } } })
    expect(JSON.stringify(seen)).not.toMatch(/tok_1|raw-token/)
  })

  it('each watcher gets every frame; one stopped gets no more, and a watcher after the last one left starts again', async () => {
    const rt = client(emu())
    const a = frames(rt)
    const b = frames(rt)
    const ch = rt.channel('frames:watchers')
    ch.subscribe(() => {})
    await untilSubscribed(ch)
    expect(a.seen.length).toBeGreaterThanOrEqual(4) // connect, connected, subscribe, subscribed
    expect(b.seen).toEqual(a.seen)
    expect(b.seen[0]).toBe(a.seen[0]) // one event, built once for both

    a.off()
    const before = a.seen.length
    await ch.publish('one', {})
    expect(b.seen.filter((e) => e.type === 'publish')).toHaveLength(1)
    b.off()
    b.off() // idempotent
    await ch.publish('two', {})
    expect(a.seen).toHaveLength(before)
    expect(b.seen.filter((e) => e.type === 'publish')).toHaveLength(1)

    const c = frames(rt)
    await ch.publish('three', {})
    expect(c.seen[0]).toMatchObject({ direction: 'out', type: 'publish', frame: { event: 'three' } })
    expect(c.seen.filter((e) => e.type === 'publish')).toHaveLength(1) // from now on only
    expect(c.seen.filter((e) => e.type === 'ack')).toHaveLength(1)
    c.off()
  })

  it('a watcher that throws breaks neither the client nor the other watchers', async () => {
    const report = vi.fn()
    vi.stubGlobal('reportError', report) // Node 20 has none
    const rt = client(emu())
    const off = watchFrames(rt, () => {
      throw new Error('tool bug')
    })
    const { seen } = frames(rt)
    const ch = rt.channel('frames:throws')
    ch.subscribe(() => {})
    await untilSubscribed(ch)
    const ack = await ch.publish('still', { ok: true })
    expect(seen.find((e) => e.type === 'ack')!.frame).toMatchObject({ offset: ack.offset })
    expect(report).toHaveBeenCalledTimes(seen.length) // once per frame, from the throwing one
    expect(report.mock.calls[0]![0]).toMatchObject({ message: 'tool bug' })
    off()
  })

  it('refuses what createRealtime did not make', () => {
    const notAClient = { on: () => () => {} } as unknown as Realtime
    expect(() => watchFrames(notAClient, () => {})).toThrow(ValidationError)
  })
})
