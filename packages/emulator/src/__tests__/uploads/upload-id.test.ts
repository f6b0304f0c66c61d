// tus works on the upload the route authorised, never on an id smuggled into the query
// (`/uploads/<mine>?x=/<victim>`: @tus/server reads the last `/` segment of the raw URL), and a
// bad percent-escape in the query is a normal answer, not a 500.
import { describe, expect, it } from 'vitest'
import { call, useEmulator } from '../helpers.js'
import { create, customerToken, idOf, patch, UPLOADS_URL, uploaded } from './helpers.js'

const emu = useEmulator({ plans: { support: false }, customerPlan: false })
const TUS = { 'Tus-Resumable': '1.0.0' }

async function twoCustomers() {
  const ada = await customerToken(emu(), 'cus_victim')
  const bob = await customerToken(emu(), 'cus_smuggler')
  // Ada's upload is half sent; Bob's own is 3 bytes long.
  const created = await create(emu(), ada, 10, 'text/plain', 'secret-plan.txt')
  const victim = idOf(created)
  expect((await patch(emu(), ada, victim, Buffer.from('hello'))).status).toBe(204)
  const mine = idOf(await create(emu(), bob, 3, 'text/plain', 'mine.txt'))
  return { ada, bob, victim, mine }
}

describe('the upload id tus works on', () => {
  it('HEAD with `?x=/<another id>` answers about the caller’s own upload, not the other', async () => {
    const { bob, victim, mine } = await twoCustomers()
    const res = await call(emu(), `${UPLOADS_URL}/${mine}?x=/${victim}`, { method: 'HEAD', token: bob, headers: TUS })
    expect(res.status).toBe(200)
    expect(res.headers.get('upload-length')).toBe('3')
    expect(res.headers.get('upload-offset')).toBe('0')
    expect(res.headers.get('upload-metadata') ?? '').not.toContain(Buffer.from('secret-plan.txt').toString('base64'))
  })

  it('PATCH with `?x=/<another id>` writes the caller’s own upload; the other’s bytes stay', async () => {
    const { bob, victim, mine } = await twoCustomers()
    const res = await call(emu(), `${UPLOADS_URL}/${mine}?x=/${victim}`, {
      method: 'PATCH',
      token: bob,
      headers: { ...TUS, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(Buffer.from('abc')),
    })
    expect(res.status).toBe(204)
    expect((await emu().uploads.bytes(victim))?.toString()).toBe('hello')
    expect(emu().uploads.get(victim)).toMatchObject({ offset: 5, complete: false })
    expect((await emu().uploads.bytes(mine))?.toString()).toBe('abc')
  })

  it('DELETE with `?x=/<another id>` deletes the caller’s own upload; the other’s stays', async () => {
    const { bob, victim, mine } = await twoCustomers()
    const res = await call(emu(), `${UPLOADS_URL}/${mine}?x=/${victim}`, { method: 'DELETE', token: bob, headers: TUS })
    expect(res.status).toBe(204)
    expect(emu().uploads.get(victim)).toBeDefined()
    expect((await emu().uploads.bytes(victim))?.toString()).toBe('hello')
    expect(emu().uploads.get(mine)).toBeUndefined()
  })

  it('a bad percent-escape in the query is no server error', async () => {
    const token = await customerToken(emu(), 'cus_escape')
    const id = await uploaded(emu(), token, Buffer.from('text'), 'text/plain')
    for (const method of ['HEAD', 'DELETE']) {
      const res = await call(emu(), `${UPLOADS_URL}/${id}?x=%E0%A4%A`, { method, token, headers: TUS })
      expect(res.status, method).toBeLessThan(500)
    }
  })
})
