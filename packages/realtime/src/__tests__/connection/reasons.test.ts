// No silent failure (issue 18): a request refused because the client cannot work says why, at
// once; a client that cannot reach its URL says so after a few attempts; every state change
// carries the reason the client is not connected.
import { until } from '../../../../../test/utils/wait.js'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RealtimeError } from '@tandem/core'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { DEFAULTS, createRealtime, type Realtime } from '../../index.js'
import type { StateChange } from '../../types.js'
import { client, untilState, useEmulator } from '../helpers.js'
import { history } from '../../history.js'

const emu = useEmulator()
const opened: Realtime[] = []
afterEach(() => {
  for (const rt of opened.splice(0)) rt.close()
})
const token = async () => ({ token: await emu().mintToken({ subject: 'u', scope: ['realtime'] }), expiresIn: 600 })
const realtime = (url: string, options: Parameters<typeof createRealtime>[1] = {}) => {
  const rt = createRealtime({ auth: { fetchToken: token }, url }, { backoff: { baseMs: 5, capMs: 20 }, ...options })
  opened.push(rt)
  return rt
}

describe('no WebSocket in the runtime (Node 20 without the option)', () => {
  it('the first publish rejects at once with no_websocket, not after its timeout; so does every later one', async () => {
    expect('WebSocket' in globalThis).toBe(false) // Node 20: the case the README's example fell into
    const rt = realtime(`${emu().url}/realtime`)
    const errors: RealtimeError[] = []
    rt.on('error', (e) => errors.push(e))
    const chat = rt.channel('chat:lobby')
    const first = await chat.publish('message', { text: 'hi' }, { timeoutMs: 60_000 }).catch((e: RealtimeError) => e)
    expect(first).toMatchObject({ name: 'RealtimeError', code: 'no_websocket' })
    expect((first as Error).message).toMatch(/options\.WebSocket.*ws/)
    const later = await history(chat).catch((e: RealtimeError) => e)
    expect(later).toMatchObject({
      code: 'no_websocket',
      message: expect.stringMatching(/^Client failed: No WebSocket/),
    })
    expect((later as Error).cause).toBe(errors[0]) // the original, as emitted on rt.on('error')
    expect(rt.state).toBe('failed')
  })

  it('finds globalThis.WebSocket where the runtime has one (browsers, Node ≥ 22): no option needed', async () => {
    Object.assign(globalThis, { WebSocket })
    try {
      const rt = realtime(`${emu().url}/realtime`)
      const ack = await rt.channel('chat:global').publish('message', 1)
      expect(ack.offset).toBeGreaterThan(0)
    } finally {
      Reflect.deleteProperty(globalThis, 'WebSocket')
    }
  })
})

describe('a realtime URL where no service answers', () => {
  it('says what it tried after a few failed attempts, keeps retrying, and a publish that could not be sent fails with that reason', async () => {
    // An HTTP server that refuses every upgrade: the socket closes before any handshake.
    const server = createServer((_, res) => res.writeHead(404).end())
    server.on('upgrade', (_, socket) => socket.end('HTTP/1.1 404 Not Found\r\n\r\n'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/not-realtime`
    try {
      const rt = realtime(url, { WebSocket })
      const errors: RealtimeError[] = []
      const states: StateChange[] = []
      rt.on('error', (e) => errors.push(e))
      rt.on('state', (s) => states.push(s))
      const pending = rt.channel('chat:nowhere').publish('message', 'x', { queueTimeoutMs: 1_000 })
      const failure = pending.then(
        () => expect.unreachable('the publish should time out'),
        (e: RealtimeError) => e,
      )
      await until(
        (cb) => rt.on('error', cb),
        () => errors.some((e) => e.code === 'unreachable'),
        5_000,
        'an unreachable error',
      )
      const unreachable = errors.find((e) => e.code === 'unreachable')!
      expect(unreachable.message).toContain(`ws://127.0.0.1:`)
      expect(unreachable.message).toMatch(new RegExp(`in ${DEFAULTS.unreachableAfter} attempts .*still retrying`))
      expect(errors.filter((e) => e.code === 'unreachable')).toHaveLength(1) // said once, not per attempt
      expect(unreachable.cause).toMatchObject({
        name: 'RealtimeError',
        message: expect.stringContaining('/not-realtime'),
      })
      const reconnecting = states.filter((s) => s.current === 'reconnecting')
      expect(reconnecting.length).toBeGreaterThanOrEqual(DEFAULTS.unreachableAfter - 1)
      expect(reconnecting.every((s) => s.lastError?.message.includes('closed before the handshake'))).toBe(true)
      const e = await failure
      expect(e).toMatchObject({ code: 'queue_timeout', temporary: true })
      expect(e.message).toMatch(/^publish not sent within 1000 ms: Socket to ws:\/\/127\.0\.0\.1:\d+\/not-realtime/)
      expect(e.cause).toMatchObject({ name: 'RealtimeError' })
      expect(rt.state).not.toBe('failed') // it keeps trying: the URL may come up
    } finally {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  })

  it('a client that once connected clears lastError on connected and never reports unreachable for later drops', async () => {
    const rt = client(emu(), { subject: 'dropper' })
    const states: StateChange[] = []
    const errors: RealtimeError[] = []
    rt.on('state', (s) => states.push(s))
    rt.on('error', (e) => errors.push(e))
    rt.connect()
    await untilState(rt, 'connected')
    expect(states.at(-1)?.lastError).toBeUndefined()
    emu().realtime.dropConnections({ subject: 'dropper' })
    await untilState(rt, 'reconnecting')
    expect(states.at(-1)?.lastError).toMatchObject({ message: expect.stringMatching(/^Connection to .* lost/) })
    await untilState(rt, 'connected')
    expect(states.at(-1)?.lastError).toBeUndefined()
    expect(errors.map((e) => e.code)).not.toContain('unreachable')
  })
})

describe('defaults', () => {
  it('a publish waits seconds, not a minute (it fits a chat)', () => {
    expect(DEFAULTS.publishTimeoutMs).toBeLessThanOrEqual(15_000)
  })
})

describe('channel names (finding 7)', () => {
  it('a bad name is a ValidationError that reads as a sentence, not a raw regex', () => {
    const rt = realtime(`${emu().url}/realtime`, { WebSocket, autoConnect: false })
    for (const name of ['', 'has space', '..', 'x'.repeat(201)]) {
      let error: unknown
      try {
        rt.channel(name)
      } catch (e) {
        error = e
      }
      expect(error).toMatchObject({ name: 'ValidationError', code: 'validation_error', field: 'channel' })
      expect((error as Error).message).toMatch(/^channel: must be 1-200 characters of [^\\^$[\]]+$/)
    }
  })
})
