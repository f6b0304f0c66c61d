// A frame over maxMessageBytes closes the socket 4009 frame_too_large (docs/protocol.md), however
// big: `ws` refuses it from the frame header (src/realtime/sized-socket.ts turns its 1009 into 4009).
import { CLOSE } from '@tandem/contract'
import { afterEach, describe, expect, it } from 'vitest'
import { useEmulator } from './helpers.js'
import { TestSocket } from './realtime-helpers.js'

const MAX = 16_384
const emu = useEmulator({ realtime: { maxMessageBytes: MAX } })

const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})
async function connect(): Promise<TestSocket> {
  const { socket } = await TestSocket.connect(emu(), await emu().mintToken())
  sockets.push(socket)
  return socket
}

/** A publish frame of exactly `bytes` bytes of JSON. */
function publishOf(bytes: number, id: string): string {
  const frame = (data: string) =>
    JSON.stringify({ type: 'publish', id, channel: 'big', event: 'e', data, idempotencyKey: id })
  return frame('x'.repeat(bytes - frame('').length))
}

describe('frame size', () => {
  it('a frame of exactly maxMessageBytes is read', async () => {
    const s = await connect()
    const text = publishOf(MAX, 'exact')
    expect(Buffer.byteLength(text)).toBe(MAX)
    s.send(text)
    expect((await s.take((f) => f.id === 'exact')).type).toBe('ack')
  })

  for (const [name, bytes] of [
    ['one byte over', MAX + 1],
    ['5 MB, beyond any buffer', 5 * 1024 * 1024],
  ] as const) {
    it(`${name} → close 4009 frame_too_large`, async () => {
      const s = await connect()
      s.send(publishOf(bytes, 'big'))
      const closed = await s.closedWithin(10_000)
      expect(closed.code).toBe(CLOSE.frame_too_large)
      expect(JSON.parse(closed.reason)).toEqual({ code: 'frame_too_large' })
      expect(s.inbox.filter((f) => f.id === 'big')).toEqual([])
    })
  }
})
