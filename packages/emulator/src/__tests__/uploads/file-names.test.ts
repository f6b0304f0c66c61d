// A file's name is a name (UPLOAD_NAME): no controls, no bidirectional overrides, no path
// separators, refused at creation (400 invalid_parameter); and a download's name ends with the
// extension of the type the service stored (an `invoice.html` sent as text/plain downloads as
// `invoice.html.txt`, never as a page a browser would open as HTML).
import { type Attachment } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { call, expectError, useEmulator } from '../helpers.js'
import { agentToken, create, customerToken, pdf, uploaded } from './helpers.js'

const emu = useEmulator({ plans: { support: false }, customerPlan: false })

describe('file names', () => {
  it('refuses a name with a control, a bidirectional override or a path separator', async () => {
    const token = await customerToken(emu(), 'cus_names')
    for (const name of ['invoice\u202Efdp.exe', 'two\nlines.txt', '../etc/passwd', 'a\\b.txt', 'tab\there.txt'])
      await expectError(await create(emu(), token, 3, 'text/plain', name), 400, 'invalid_parameter')
    expect((await create(emu(), token, 3, 'text/plain', 'Notes — été 😀.txt')).status).toBe(201)
  })

  it('downloads under a name whose extension is the stored type’s', async () => {
    const agent = await agentToken(emu())
    const customer = await customerToken(emu(), 'cus_ext')
    const started = await call(emu(), '/support/v1/me/conversations', {
      method: 'POST',
      token: customer,
      json: { text: 'Hi' },
    })
    const conversation = ((await started.json()) as { id: string }).id
    const files: [Buffer, string, string][] = [
      [Buffer.from('<script>alert(1)</script>'), 'text/plain', 'invoice.html'],
      [Buffer.from('plain'), 'text/plain', 'README.TXT'],
      [pdf(), 'application/pdf', 'report'],
    ]
    const ids = []
    for (const [bytes, type, name] of files) ids.push(await uploaded(emu(), agent, bytes, type, name))
    const res = await call(emu(), `/support/v1/conversations/${conversation}/reply`, {
      method: 'POST',
      token: agent,
      json: { text: 'Files', attachments: ids },
    })
    const { attachments } = (await res.json()) as { attachments: Attachment[] }
    const names = []
    for (const a of attachments) {
      const got = await call(emu(), a.url.slice(emu().url.length))
      names.push(/filename="([^"]*)"/.exec(got.headers.get('content-disposition') ?? '')?.[1])
    }
    expect(names).toEqual(['invoice.html.txt', 'README.TXT', 'report.pdf'])
    // The attachment keeps the name it was sent with.
    expect(attachments.map((a) => a.name)).toEqual(['invoice.html', 'README.TXT', 'report'])
  })
})
