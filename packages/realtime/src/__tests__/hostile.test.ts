// Regressions found by the reliability suite's fuzzing (test/reliability/fuzz.test.ts).
import { isRealtimeError, isValidationError } from '@tandem/core'
import { describe, expect, it } from 'vitest'
import type { Reply } from '../connection/protocol.js'
import { createRequests } from '../requests/requests.js'
import { client, useEmulator } from './helpers.js'
import { history } from '../history.js'

const emu = useEmulator()

describe('hostile replies and inputs', () => {
  it('a reply of the wrong type under a request id rejects that request with bad_frame, not a TypeError', async () => {
    const sent: { id: number }[] = []
    const requests = createRequests({
      write: (text) => {
        sent.push(JSON.parse(text))
        return true
      },
      dead: () => {},
      error: () => {},
      seq: () => 1,
      maxBytes: () => 65_536,
      maxQueued: 10,
      timeoutMs: 5_000,
      queueTimeoutMs: 60_000,
      retryFloor: () => 0,
      serverMaxMs: 300_000,
      ready: () => true,
    })
    const cases = [
      ['history', 'authed'],
      ['publish', 'ok'],
      ['presence.get', 'history'],
      ['presence.enter', 'ack'],
    ] as const
    for (const [type, wrong] of cases) {
      const done = requests.request({ type, channel: 'c' })
      // Straight to requests, past parseFrame: a reply of the wrong type must not reach the caller.
      requests.reply({ type: wrong, id: sent.at(-1)!.id } as unknown as Reply)
      const e = await done.catch((x: unknown) => x)
      expect(isRealtimeError(e) && e.code === 'bad_frame', `${type} answered by ${wrong}: ${String(e)}`).toBe(true)
    }
  })

  it('channel names "." and "..", which the service refuses, are a ValidationError', () => {
    const rt = client(emu(), {}, { autoConnect: false })
    for (const name of ['.', '..']) expect(() => rt.channel(name)).toThrow(/channel/)
    expect(rt.channel('.a').name).toBe('.a')
  })

  it('history options are checked before sending: null is the defaults, a bad since or limit a ValidationError', async () => {
    const rt = client(emu(), { subject: 'hostile' })
    const ch = rt.channel('hostile:1')
    await expect(history(ch, null as never)).resolves.toMatchObject({ complete: true })
    for (const options of [
      { since: { epoch: 5, offset: 1 } },
      { since: { epoch: 'e', offset: -1 } },
      { since: 'x' },
      { limit: 0 },
      { limit: 1001 },
      { limit: 1.5 },
    ]) {
      const e = await history(ch, options as never).catch((x: unknown) => x)
      expect(isValidationError(e), `${JSON.stringify(options)}: ${String(e)}`).toBe(true)
    }
    expect(emu().realtime.stats.framesOut.error ?? 0).toBe(0)
  })
})
