// A finished upload's bytes are checked once: a 0-byte PATCH at its end offset (a client
// confirming it, a retry) does not read the file again (`emulator.uploads.get(id).checks`).
import { describe, expect, it } from 'vitest'
import { useEmulator } from '../helpers.js'
import { customerToken, patch, png, uploaded } from './helpers.js'

const emu = useEmulator({ plans: { support: false }, customerPlan: false })

describe('a 0-byte PATCH on a complete upload', () => {
  it('answers its offset without checking the bytes again', async () => {
    const token = await customerToken(emu(), 'cus_twice')
    const file = png(32, 32)
    const id = await uploaded(emu(), token, file, 'image/png', 'dot.png')
    expect(emu().uploads.get(id)).toMatchObject({ complete: true, checks: 1 })
    const again = await patch(emu(), token, id, Buffer.alloc(0), file.length)
    expect(again.status).toBe(204)
    expect(again.headers.get('upload-offset')).toBe(String(file.length))
    expect(emu().uploads.get(id)).toMatchObject({ complete: true, checks: 1 })
  })
})
