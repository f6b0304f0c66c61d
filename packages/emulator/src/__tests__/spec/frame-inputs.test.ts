// src/spec/frame-inputs.ts over a real WebSocket: every constraint of every client frame, broken
// once (generated from the AsyncAPI document), is refused with the error the protocol names
// (`connect`, before `connected`: close 4000), and each frame's valid example is accepted.
import { CLOSE } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { useEmulator } from '../helpers.js'
import { TestSocket, type Frame } from '../realtime-helpers.js'
import { frameCases } from './frame-cases.js'

const emu = useEmulator({ realtime: { publishRate: { limit: 1000, intervalMs: 1000 } } })

describe('client frames against the AsyncAPI document', () => {
  it('refuses each broken constraint with the error the protocol names, and accepts the valid frame', async () => {
    const token = await emu().mintToken()
    const { valid, cases, types } = frameCases(token)
    // A floor, so a generator that finds nothing fails instead of passing with zero cases.
    expect(types).toBe(11)
    expect(cases.length).toBeGreaterThan(60)
    const wrong: string[] = []

    const { socket } = await TestSocket.connect(emu(), token)
    await socket.request({ type: 'subscribe', channels: [{ channel: 'conf:room' }] })
    for (const c of cases.filter((x) => x.type !== 'connect')) {
      socket.send(c.frame)
      const reply: Frame = await socket.take(
        (f) => (c.keepsId ? f.id === c.frame.id : f.type === 'error' && f.id === undefined),
        3000,
      )
      if (reply.type !== 'error' || reply.error.code !== c.code)
        wrong.push(`${c.name}: ${reply.type} ${reply.error?.code ?? ''} (wanted ${c.code})`)
      else if (!reply.error.message.includes(`"${c.field}"`))
        wrong.push(`${c.name}: "${reply.error.message}" does not name ${c.field}`)
    }
    for (const frame of valid.filter((f) => f.type !== 'connect')) {
      socket.send(frame)
      const reply = await socket.take((f) => f.id === frame.id, 3000)
      if (reply.type === 'error') wrong.push(`valid ${String(frame.type)}: ${reply.error.code} ${reply.error.message}`)
    }
    socket.close()

    // Before `connected`, anything but a valid `connect` closes the socket 4000.
    for (const c of cases.filter((x) => x.type === 'connect')) {
      const s = await TestSocket.open(emu())
      s.send(c.frame)
      const closed = await s.closedWithin()
      if (closed.code !== CLOSE.protocol_error) wrong.push(`${c.name}: closed ${closed.code}, not 4000`)
    }
    const open = await TestSocket.open(emu())
    const connect = valid.find((f) => f.type === 'connect')!
    open.send(connect)
    expect((await open.take((f) => f.id === connect.id)).type).toBe('connected')
    open.close()

    console.info(`socket conformance: ${types} frame types, ${cases.length} cases, ${valid.length} valid frames`)
    expect(wrong).toEqual([])
  })
})
