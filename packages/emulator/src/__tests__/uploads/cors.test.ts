// A page uploads from another origin (the SDK in a browser, tus-js-client): the preflight allows
// tus's headers and methods, and every tus answer lets the page read the upload's URL and
// offset, and the request id and rate limit headers as on any route.
import { describe, expect, it } from 'vitest'
import { call, useEmulator } from '../helpers.js'
import { create, customerToken, idOf, UPLOADS_URL } from './helpers.js'

const emu = useEmulator({ plans: { support: false }, customerPlan: false })

describe('uploads from a page of another origin', () => {
  it('allows tus in the preflight', async () => {
    const res = await fetch(`${emu().url}${UPLOADS_URL}/upl_0123456789abcdef0123`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization, tus-resumable, upload-offset, content-type',
      },
    })
    expect(res.status).toBe(204)
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase()
    for (const header of ['authorization', 'tus-resumable', 'upload-length', 'upload-metadata', 'upload-offset'])
      expect(allowed).toContain(header)
    const methods = res.headers.get('access-control-allow-methods') ?? ''
    for (const method of ['POST', 'HEAD', 'PATCH', 'DELETE']) expect(methods).toContain(method)
  })

  it('lets the page read Location, Upload-Offset and the request id of tus answers', async () => {
    const token = await customerToken(emu(), 'cus_cors')
    const created = await create(emu(), token, 5, 'text/plain')
    const exposed = (res: Response) => (res.headers.get('access-control-expose-headers') ?? '').toLowerCase()
    for (const header of ['location', 'x-request-id', 'ratelimit-remaining']) expect(exposed(created)).toContain(header)
    const head = await call(emu(), `${UPLOADS_URL}/${idOf(created)}`, {
      method: 'HEAD',
      token,
      headers: { 'Tus-Resumable': '1.0.0', Origin: 'https://app.example' },
    })
    expect(head.headers.get('upload-offset')).toBe('0')
    expect(head.headers.get('upload-length')).toBe('5')
    for (const header of ['upload-offset', 'upload-length', 'x-request-id']) expect(exposed(head)).toContain(header)
    expect(head.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/app\.example)$/)
  })
})
