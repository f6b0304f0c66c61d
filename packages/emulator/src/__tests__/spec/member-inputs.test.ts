// src/spec/member-inputs.ts over a real WebSocket: presence member data on a channel whose AsyncAPI
// channel declares a `member` message is checked against it (each constraint broken once, generated
// from the document: `bad_request` naming `data.<field>`, and no presence event), the valid example
// is accepted, and every member's data anywhere is capped at MAX_MEMBER_DATA_BYTES.
import { MAX_MEMBER_DATA_BYTES } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { useEmulator } from '../helpers.js'
import { TestSocket } from '../realtime-helpers.js'
import { memberCases } from './member-cases.js'

const emu = useEmulator({ realtime: { presenceRate: { limit: 10_000, intervalMs: 1000 } } })

describe('presence member data against the AsyncAPI document', () => {
  it('refuses each broken constraint of a declared member schema, naming the field, and accepts the valid one', async () => {
    const { valid, cases } = memberCases()
    // A floor, so a generator that finds nothing fails instead of passing with zero cases.
    expect(valid.length).toBeGreaterThanOrEqual(1)
    expect(cases.length).toBeGreaterThan(15)
    const { socket } = await TestSocket.connect(emu(), await emu().mintToken({ scope: ['realtime'] }))
    const channels = [...new Set(valid.map((v) => v.channel))]
    await socket.request({ type: 'subscribe', channels: channels.map((channel) => ({ channel })) })
    const wrong: string[] = []
    for (const c of cases) {
      const reply = await socket.request({ type: 'presence.enter', channel: c.channel, data: c.data })
      if (reply.type !== 'error' || reply.error.code !== 'bad_request')
        wrong.push(`${c.name}: ${reply.type} ${reply.error?.code ?? ''} (wanted bad_request)`)
      else if (!reply.error.message.startsWith(`"${c.field}"`))
        wrong.push(`${c.name}: "${reply.error.message}" does not name ${c.field}`)
    }
    // Nothing refused was relayed: the only presence events are the valid members'.
    for (const v of valid) {
      const reply = await socket.request({ type: 'presence.enter', channel: v.channel, data: v.data })
      if (reply.type !== 'ok') wrong.push(`valid member on ${v.channel}: ${reply.type} ${reply.error?.message ?? ''}`)
      await socket.take((f) => f.type === 'presence.event' && f.channel === v.channel)
    }
    expect(socket.drain('presence.event')).toEqual([])
    socket.close()
    console.info(`member conformance: ${valid.length} member schemas, ${cases.length} cases`)
    expect(wrong).toEqual([])
  })

  it(`caps every member's data at ${MAX_MEMBER_DATA_BYTES} bytes, on any channel`, async () => {
    const { socket } = await TestSocket.connect(emu(), await emu().mintToken({ scope: ['realtime'] }))
    await socket.request({ type: 'subscribe', channels: [{ channel: 'conf:room' }] })
    const sized = (bytes: number) => ({ blob: 'x'.repeat(bytes - JSON.stringify({ blob: '' }).length) })
    const over = await socket.request({
      type: 'presence.enter',
      channel: 'conf:room',
      data: sized(MAX_MEMBER_DATA_BYTES + 1),
    })
    expect(over.type === 'error' && over.error.code).toBe('message_too_large')
    expect(
      (await socket.request({ type: 'presence.enter', channel: 'conf:room', data: sized(MAX_MEMBER_DATA_BYTES) })).type,
    ).toBe('ok')
    socket.close()
  })
})
