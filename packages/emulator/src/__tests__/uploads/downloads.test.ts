// Downloads by signed URL (no token anywhere in it): the file's bytes with its stored type and
// headers that keep a browser from running it; a tampered or expired URL is 403 `forbidden`; each
// answer mints a fresh URL.
import { UPLOADS, type Attachment } from '@tandem/contract'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { call, expectError, useEmulator } from '../helpers.js'
import { agentToken, customerToken, pdf, png, sha256, uploaded } from './helpers.js'

const emu = useEmulator({ plans: { support: false }, customerPlan: false })
afterEach(() => void vi.useRealTimers())

let conversation = ''
let customer = ''
let agent = ''
beforeAll(async () => {
  customer = await customerToken(emu(), 'cus_dl')
  agent = await agentToken(emu())
  const res = await call(emu(), '/support/v1/me/conversations', {
    method: 'POST',
    token: customer,
    json: { text: 'Hi' },
  })
  conversation = ((await res.json()) as { id: string }).id
})

/** The agent replies with `bytes`; the customer reads the message back: its attachment. */
async function replyWith(bytes: Buffer, type: string, name: string): Promise<Attachment> {
  const id = await uploaded(emu(), agent, bytes, type, name)
  const res = await call(emu(), `/support/v1/conversations/${conversation}/reply`, {
    method: 'POST',
    token: agent,
    json: { text: 'Here you are', attachments: [id] },
  })
  expect(res.status).toBe(201)
  const messages = (await (
    await call(emu(), `/support/v1/me/conversations/${conversation}/messages?limit=100`, { token: customer })
  ).json()) as { data: { attachments: Attachment[] }[] }
  return messages.data.at(-1)!.attachments[0]!
}

const download = (url: string) => call(emu(), url.slice(emu().url.length))

describe('signed downloads', () => {
  it('serves a PDF as an attachment with its name, its type and headers that keep it inert', async () => {
    const bytes = pdf()
    const file = await replyWith(bytes, 'application/pdf', 'Facture n°42 "final".pdf')
    const res = await download(file.url)
    expect(res.status).toBe(200)
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(bytes))
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    // A page's script may fetch it (the messenger draws thumbnails from the bytes).
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Facture n_42 _final_.pdf"; filename*=UTF-8''Facture%20n%C2%B042%20%22final%22.pdf`,
    )
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1])
    expect(maxAge).toBeGreaterThan(0)
    expect(maxAge).toBeLessThanOrEqual(UPLOADS.downloadTtlSeconds)
    expect(Date.parse(file.expiresAt) - Date.now()).toBeLessThanOrEqual(UPLOADS.downloadTtlSeconds * 1000)
  })

  it('serves an image inline (a thumbnail can show it)', async () => {
    const file = await replyWith(png(8, 8), 'image/png', 'dot.png')
    const res = await download(file.url)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('content-disposition')).toMatch(/^inline; /)
  })

  it('refuses a tampered URL and one past its time (403 forbidden); a later answer has a fresh URL', async () => {
    const file = await replyWith(Buffer.from('plain text\n'), 'text/plain', 'notes.txt')
    const url = new URL(file.url)
    const tamper = (name: string, value: string) => {
      const u = new URL(url)
      u.searchParams.set(name, value)
      return u.href
    }
    const signature = url.searchParams.get('signature')!
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    await expectError(await download(tamper('signature', flipped)), 403, 'forbidden')
    await expectError(
      await download(tamper('expires', String(Number(url.searchParams.get('expires')) + 3600))),
      403,
      'forbidden',
    )
    // Another file's signature does not open this one.
    const other = await replyWith(pdf(), 'application/pdf', 'other.pdf')
    await expectError(await download(file.url.replace(file.id, other.id)), 403, 'forbidden')
    expect((await download(file.url)).status).toBe(200)
    // Past its time: only the clock moves (the sockets keep theirs).
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.parse(file.expiresAt) + 1000)
    await expectError(await download(file.url), 403, 'forbidden')
    const fresh = (
      (await (
        await call(emu(), `/support/v1/conversations/${conversation}/threads?limit=100`, { token: agent })
      ).json()) as {
        data: { attachments: Attachment[] }[]
      }
    ).data
      .flatMap((t) => t.attachments)
      .find((a) => a.id === file.id)!
    expect(Date.parse(fresh.expiresAt)).toBeGreaterThan(Date.now())
    expect((await download(fresh.url)).status).toBe(200)
  })
})
