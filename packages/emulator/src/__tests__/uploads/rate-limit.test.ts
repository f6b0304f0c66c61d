// The default plans (a customer's own 60 requests a minute): an upload's HEAD and PATCH requests
// are not counted against the rate limit (a 10 MiB file is 20 PATCHes of UPLOADS.chunkBytes), its
// creation POST and DELETE are. One customer sends a message with five files of UPLOADS.maxFileBytes
// (their whole quota) by tus-js-client, as the SDK does, and nothing is refused.
import { UPLOADS } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { slack } from '../../../../../test/utils/wait.js'
import { call, useEmulator } from '../helpers.js'
import { create, customerToken, tusUpload, UPLOADS_URL } from './helpers.js'

// No `plans` and no `customerPlan`: the defaults.
const emu = useEmulator()

describe('uploads under the default rate limits', () => {
  it(
    'five files of the largest size in one message, by one customer',
    async () => {
      const token = await customerToken(emu(), 'cus_heavy')
      const started = await call(emu(), '/support/v1/me/conversations', {
        method: 'POST',
        token,
        json: { text: 'Logs' },
      })
      const conversation = ((await started.json()) as { id: string }).id
      const file = Buffer.alloc(UPLOADS.maxFileBytes, 'a')
      const ids: string[] = []
      for (let i = 0; i < UPLOADS.filesPerMessage; i++)
        ids.push(await tusUpload(file, { base: emu().url, token, type: 'text/plain', name: `log-${i}.txt` }))
      const sent = await call(emu(), `/support/v1/me/conversations/${conversation}/messages`, {
        method: 'POST',
        token,
        json: { text: '', attachments: ids },
      })
      expect(sent.status).toBe(201)
      for (const id of ids) expect(emu().uploads.get(id)).toMatchObject({ complete: true, size: file.length })
    },
    slack(60_000),
  )

  it('counts each creation and DELETE (but not HEAD) against the customer’s own limit', async () => {
    const token = await customerToken(emu(), 'cus_counted')
    const remaining = (res: Response) => Number(res.headers.get('ratelimit-remaining'))
    const first = await create(emu(), token, 1, 'text/plain')
    const id = (first.headers.get('location') ?? '').split('/').pop() ?? ''
    const head = await call(emu(), `${UPLOADS_URL}/${id}`, {
      method: 'HEAD',
      token,
      headers: { 'Tus-Resumable': '1.0.0' },
    })
    expect(head.status).toBe(200)
    const second = await create(emu(), token, 1, 'text/plain')
    expect(remaining(second)).toBe(remaining(first) - 1)
    const gone = await call(emu(), `${UPLOADS_URL}/${id}`, {
      method: 'DELETE',
      token,
      headers: { 'Tus-Resumable': '1.0.0' },
    })
    expect(gone.status).toBe(204)
    expect(remaining(gone)).toBe(remaining(second) - 1)
  })
})
