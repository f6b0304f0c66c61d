// A keyed message write refused because a file is still uploading (409 upload_incomplete) is a
// temporary refusal: its replay must not stick. Once the upload completes, the same write with
// the same Idempotency-Key goes through (and is then replayed as applied).
import { describe, expect, it } from 'vitest'
import { call, expectError, useEmulator } from '../helpers.js'
import { create, customerToken, idOf, patch } from './helpers.js'

const emu = useEmulator({ plans: { support: false }, customerPlan: false })

describe('an idempotent write naming an upload still under way', () => {
  it('is refused 409 upload_incomplete, and passes with the same key once the upload is complete', async () => {
    const token = await customerToken(emu(), 'cus_early')
    const started = await call(emu(), '/support/v1/me/conversations', { method: 'POST', token, json: { text: 'Hi' } })
    const conversation = ((await started.json()) as { id: string }).id
    const bytes = Buffer.from('the log')
    const id = idOf(await create(emu(), token, bytes.length, 'text/plain', 'log.txt'))
    const send = () =>
      call(emu(), `/support/v1/me/conversations/${conversation}/messages`, {
        method: 'POST',
        token,
        json: { text: 'see the log', attachments: [id] },
        headers: { 'Idempotency-Key': 'msg-with-log' },
      })
    await expectError(await send(), 409, 'upload_incomplete')
    expect((await patch(emu(), token, id, bytes)).status).toBe(204)
    const sent = await send()
    expect(sent.status).toBe(201)
    expect(sent.headers.get('idempotent-replayed')).toBeNull()
    expect(emu().uploads.get(id)?.attachedTo).toBe(((await sent.json()) as { id: string }).id)
    // From now on the key answers what was applied.
    const again = await send()
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
  })
})
