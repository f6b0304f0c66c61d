// Real PNG files for the tests of files on conversations (issue 48): the service checks a file's
// first bytes against its declared type and reads an image's size, so a test's picture must be one.
import { randomBytes } from 'node:crypto'
import { crc32, deflateSync } from 'node:zlib'

export interface PngOptions {
  /** Random pixels stored uncompressed: the file is about width × height × 3 bytes (a big upload). */
  noise?: boolean
  /** The one colour of every pixel (RGB) when there is no noise. @default [0x5a, 0x5a, 0x5a] */
  rgb?: readonly [number, number, number]
}

const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** A valid 8-bit RGB PNG of `width`×`height` pixels. */
export function png(
  width: number,
  height: number,
  { noise = false, rgb = [0x5a, 0x5a, 0x5a] }: PngOptions = {},
): Buffer {
  const row = width * 3 + 1 // the filter byte (0: none), then the pixels
  const raw = noise ? randomBytes(row * height) : Buffer.alloc(row * height)
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0
    if (!noise) for (let x = 0; x < width; x++) raw.set(rgb, y * row + 1 + x * 3)
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8 bits, RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: noise ? 0 : 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
