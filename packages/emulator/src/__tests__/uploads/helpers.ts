// Uploads over real HTTP: a tus creation and PATCH by hand (to see each refusal as sent), a whole
// upload by tus-js-client (what the SDK uses), and files whose bytes are what they claim.
import { createHash } from 'node:crypto'
import { crc32, deflateSync } from 'node:zlib'
import { CUSTOMER_SCOPE, UPLOADS } from '@tandem/contract'
import { Upload } from 'tus-js-client'
import type { Emulator } from '../../types.js'
import { call } from '../helpers.js'

export const UPLOADS_URL = '/support/v1/uploads'

export const customerToken = (emu: Emulator, id: string, name = 'Ada Lovelace') =>
  emu.mintToken({ subject: id, scope: [CUSTOMER_SCOPE], profile: { name } })
export const agentToken = (emu: Emulator, id = 'agt_files') =>
  emu.mintToken({ subject: id, scope: ['support', 'realtime'], profile: { name: 'Sam Agent' } })

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** A real PNG of `width`×`height` RGB pixels; `noise` fills them with random bytes (incompressible: a big file). */
export function png(width: number, height: number, noise = false): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  const row = 1 + width * 3
  const pixels = Buffer.alloc(row * height)
  if (noise) for (let i = 0; i < pixels.length; i++) pixels[i] = i % row === 0 ? 0 : (Math.random() * 256) | 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(pixels, { level: noise ? 0 : 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** A minimal PDF (file-type reads its `%PDF-` signature). */
export const pdf = (): Buffer =>
  Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1')

const meta = (name: string, type: string) =>
  `filename ${Buffer.from(name).toString('base64')},filetype ${Buffer.from(type).toString('base64')}`

/** POST: a tus creation as a client sends it. */
export function create(emu: Emulator, token: string, length: number, type: string, name = 'file.bin') {
  return call(emu, UPLOADS_URL, {
    method: 'POST',
    token,
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(length), 'Upload-Metadata': meta(name, type) },
  })
}

/** PATCH: `bytes` from `offset`. */
export function patch(emu: Emulator, token: string, id: string, bytes: Buffer, offset = 0) {
  return call(emu, `${UPLOADS_URL}/${id}`, {
    method: 'PATCH',
    token,
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(bytes),
  })
}

export const idOf = (res: Response): string => (res.headers.get('location') ?? '').split('/').pop() ?? ''

/** Creates and sends a whole file by hand; returns its id. */
export async function uploaded(emu: Emulator, token: string, bytes: Buffer, type: string, name = 'file.bin') {
  const created = await create(emu, token, bytes.length, type, name)
  if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`)
  const id = idOf(created)
  const sent = await patch(emu, token, id, bytes)
  if (sent.status !== 204) throw new Error(`patch: ${sent.status} ${await sent.text()}`)
  return id
}

export interface TusOptions {
  /** The tus endpoint's base (the emulator, or a proxy in front of it). */
  base: string
  token: string
  type: string
  name: string
  retryDelays?: number[] | null
}

/** One upload by tus-js-client, as the SDK makes it (chunks of UPLOADS.chunkBytes); resolves with its id. */
export function tusUpload(bytes: Buffer, o: TusOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(bytes, {
      endpoint: `${o.base}${UPLOADS_URL}`,
      chunkSize: UPLOADS.chunkBytes,
      retryDelays: o.retryDelays ?? null,
      metadata: { filename: o.name, filetype: o.type },
      headers: { Authorization: `Bearer ${o.token}` },
      onSuccess: () => resolve(String(upload.url).split('/').pop() ?? ''),
      onError: reject,
    })
    upload.start()
  })
}
