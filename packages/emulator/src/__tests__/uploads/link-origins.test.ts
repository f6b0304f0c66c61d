// Download links are never stored: each answer, frame and webhook mints its own. A REST answer
// may use its request's Host (a proxy in front) when that is a valid host[:port], else the
// emulator's own URL (`publicUrl`); a live frame and a webhook always use the emulator's own, so a
// request with `Host: evil.example` never puts that origin in anyone else's link.
import { request } from 'node:http'
import { customerChannelName, type Attachment } from '@tandem/contract'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { call, useEmulator } from '../helpers.js'
import { TestSocket } from '../realtime-helpers.js'
import { answer, startReceiver, type Receiver } from '../webhooks-receiver.js'
import { customerToken, uploaded } from './helpers.js'

const PUBLIC = 'http://files.localhost:7777'
const emu = useEmulator({ plans: { support: false, realtime: false }, customerPlan: false, publicUrl: PUBLIC })
const sockets: TestSocket[] = []
let receiver: Receiver | undefined
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})
afterAll(() => receiver?.close())

/** POST with a Host header of our choosing (fetch may not set one). */
function postWithHost(path: string, host: string, token: string, body: unknown) {
  const url = new URL(path, emu().url)
  const data = JSON.stringify(body)
  return new Promise<{ status: number; json: { attachments: Attachment[] } }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        setHost: false,
        headers: {
          Host: host,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(data),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) as never }),
        )
      },
    )
    req.on('error', reject)
    req.end(data)
  })
}

const originOf = (a: Attachment | undefined) => (a ? new URL(a.url).origin : undefined)

describe('download link origins', () => {
  it('a Host of the sender’s choosing reaches its own answer only; frames, webhooks and later reads do not carry it', async () => {
    receiver = await startReceiver(answer(200))
    emu().webhooks.register({ url: receiver.url, events: ['thread.created'] })
    const token = await customerToken(emu(), 'cus_host')
    const started = await call(emu(), '/support/v1/me/conversations', { method: 'POST', token, json: { text: 'Hi' } })
    const conversation = ((await started.json()) as { id: string }).id
    const { socket } = await TestSocket.connect(emu(), token)
    sockets.push(socket)
    await socket.request({ type: 'subscribe', channels: [{ channel: customerChannelName('cus_host') }] })
    const id = await uploaded(emu(), token, Buffer.from('log'), 'text/plain', 'log.txt')

    const sent = await postWithHost(`/support/v1/me/conversations/${conversation}/messages`, 'evil.example', token, {
      text: 'see',
      attachments: [id],
    })
    expect(sent.status).toBe(201)
    // Its own answer: the Host it sent (a proxy in front is the reason this is allowed).
    expect(originOf(sent.json.attachments[0])).toBe('http://evil.example')
    // The live frame: the emulator's own URL.
    const frame = await socket.take((f) => f.type === 'message' && f.event === 'message')
    expect(originOf((frame.data as { attachments: Attachment[] }).attachments[0])).toBe(PUBLIC)
    // The webhook: the emulator's own URL.
    await receiver.waitUntil(() => receiver!.hits.some((h) => h.body.includes(id)))
    const hook = JSON.parse(receiver.hits.find((h) => h.body.includes(id))!.body) as {
      data: { thread: { attachments: Attachment[] } }
    }
    expect(originOf(hook.data.thread.attachments[0])).toBe(PUBLIC)
    // A later read by someone else: its own request's Host, never the stored sender's.
    const read = (await (
      await call(emu(), `/support/v1/me/conversations/${conversation}/messages`, { token })
    ).json()) as {
      data: { attachments: Attachment[] }[]
    }
    expect(originOf(read.data.at(-1)?.attachments[0])).toBe(emu().url)
  })

  it('a Host that is not a valid host[:port] gets the emulator’s own URL', async () => {
    const token = await customerToken(emu(), 'cus_bad_host')
    const started = await call(emu(), '/support/v1/me/conversations', { method: 'POST', token, json: { text: 'Hi' } })
    const conversation = ((await started.json()) as { id: string }).id
    const id = await uploaded(emu(), token, Buffer.from('log'), 'text/plain', 'log.txt')
    const sent = await postWithHost(`/support/v1/me/conversations/${conversation}/messages`, 'a]b', token, {
      text: 'see',
      attachments: [id],
    })
    expect(sent.status).toBe(201)
    expect(originOf(sent.json.attachments[0])).toBe(PUBLIC)
  })
})
