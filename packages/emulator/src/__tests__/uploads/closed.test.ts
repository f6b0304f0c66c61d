// A closed emulator keeps no upload directory: a request that still reaches its handler (an
// embedding server that outlives it) is refused instead of making a new one, and the endpoint
// holds one process `exit` listener for its life, none after close.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { startEmulator } from '../../start.js'
import { customerToken, uploaded, UPLOADS_URL } from './helpers.js'

let outer: Server | undefined
afterAll(() => outer?.close())

describe('uploads after close', () => {
  it('makes no directory and leaves no exit listener', async () => {
    const baseline = process.listenerCount('exit')
    const emu = await startEmulator({ plans: { support: false }, customerPlan: false })
    const token = await customerToken(emu, 'cus_late')
    await uploaded(emu, token, Buffer.from('one'), 'text/plain')
    await uploaded(emu, token, Buffer.from('two'), 'text/plain')
    expect(process.listenerCount('exit')).toBe(baseline + 1)
    emu.reset()
    await uploaded(emu, await customerToken(emu, 'cus_late'), Buffer.from('three'), 'text/plain')
    expect(process.listenerCount('exit')).toBe(baseline + 1)
    await emu.close()
    expect(process.listenerCount('exit')).toBe(baseline)
    // The same handler behind a server of someone else's, still up.
    outer = createServer((req, res) => emu.handle(req, res))
    await new Promise<void>((resolve) => outer!.listen(0, '127.0.0.1', resolve))
    const res = await fetch(`http://127.0.0.1:${(outer.address() as AddressInfo).port}${UPLOADS_URL}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '3',
        'Upload-Metadata': `filetype ${Buffer.from('text/plain').toString('base64')}`,
      },
    })
    expect(res.status).toBe(503)
    expect(process.listenerCount('exit')).toBe(baseline)
  })
})
