import type { Emulator } from '@tandem/emulator'
import { createHash } from 'node:crypto'
import { createClientOfStyle } from '../client-style.js'

// Files for the uploads tests: real bytes of each type the contract allows (the service checks a
// file's first bytes against its declared type), and clients of given subjects on an emulator.

const PNG_HEADER = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')

/** A PNG of `bytes` bytes (its header and IHDR of 2×3 px, then filler): enough for the type check and its size. */
export function png(bytes = 1024, name = 'shot.png'): File {
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 3, 8, 6, 0, 0, 0, 0x72, 0xb6, 0x0d, 0x24])
  const head = Buffer.concat([PNG_HEADER, ihdr])
  const body = Buffer.alloc(Math.max(0, bytes - head.length), 7)
  return new File([head, body], name, { type: 'image/png' })
}

/** Plain text of `bytes` bytes. */
export const text = (bytes = 100, name = 'notes.txt'): File =>
  new File([Buffer.alloc(bytes, 'a')], name, { type: 'text/plain' })

export const sha256 = async (blob: Blob | Buffer): Promise<string> =>
  createHash('sha256')
    .update(Buffer.isBuffer(blob) ? blob : Buffer.from(await blob.arrayBuffer()))
    .digest('hex')

/** A client of `emu` whose token is `subject`'s with `scope` (an agent by default). */
export function clientOf(emu: Emulator, subject = 'agent_1', scope = ['support', 'realtime']) {
  return createClientOfStyle({
    baseUrl: emu.url,
    auth: { fetchToken: async () => ({ token: await emu.mintToken({ subject, scope }), expiresIn: 600 }) },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  }).client
}

export const customerOf = (emu: Emulator, subject = 'cus_alice') => clientOf(emu, subject, ['support:customer'])
