// Uploads over real HTTP: a tus creation and PATCH by hand (to see each refusal as sent), a whole
// upload by tus-js-client (what the SDK uses), and files whose bytes are what they claim.
import { createHash } from 'node:crypto'
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

export { png } from '../../../../../test/utils/png.js'

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
