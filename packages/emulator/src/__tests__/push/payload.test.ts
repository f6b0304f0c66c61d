// What a push carries (src/push/payload.ts): the title and body the service derives, shortened to
// the contract's characters, and the whole JSON within PUSH.payloadBytes whatever the text.
import { isPushPayload, PUSH, type Thread } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { buildPayload, payloadBytes } from '../../push/payload.js'

const thread = (text: string): Thread => ({
  id: 'thr_1',
  conversationId: 'cnv_a/b',
  type: 'reply',
  text,
  attachments: [],
  author: { type: 'agent', id: 'agt_1', name: 'Bea', email: null },
  createdAt: '2026-01-02T03:04:05.000Z',
})
const build = (text: string, title = 'Bea', url: string | null = null) =>
  buildPayload({ channel: 'support:customer:cus_1', thread: thread(text), title, url })

describe('push payloads', () => {
  it('carries the message as the contract shapes it, the url’s {conversationId} encoded', () => {
    const payload = build(
      '  Your   parcel\nis here ',
      'Bea',
      'https://app.example/c/{conversationId}?again={conversationId}',
    )
    expect(isPushPayload(payload)).toBe(true)
    expect(payload).toMatchObject({
      v: 1,
      type: 'message',
      messageId: 'thr_1',
      conversationId: 'cnv_a/b',
      body: 'Your parcel is here',
      url: 'https://app.example/c/cnv_a%2Fb?again=cnv_a%2Fb',
      sentAt: '2026-01-02T03:04:05.000Z',
    })
  })

  it('shortens the title and the body to the contract’s characters, never splitting a character', () => {
    const payload = build('😀'.repeat(PUSH.bodyChars + 10), 'N'.repeat(PUSH.titleChars + 1))
    expect(Array.from(payload.title)).toHaveLength(PUSH.titleChars)
    expect(Array.from(payload.body)).toHaveLength(PUSH.bodyChars)
    expect(payload.body).toMatch(/^(😀)+…$/u)
  })

  it('keeps the JSON within the byte limit: the body gives way first, then the url', () => {
    const longUrl = `https://app.example/${'é'.repeat(PUSH.endpointChars - 40)}`
    const fits = build('😀'.repeat(PUSH.bodyChars), 'Bea', `https://app.example/${'a'.repeat(2000)}`)
    expect(payloadBytes(fits)).toBeLessThanOrEqual(PUSH.payloadBytes)
    expect(fits.url).not.toBeNull()
    expect(Array.from(fits.body).length).toBeLessThan(PUSH.bodyChars)
    const dropped = build('text', 'Bea', longUrl)
    expect(payloadBytes(dropped)).toBeLessThanOrEqual(PUSH.payloadBytes)
    expect(dropped.url).toBeNull()
  })

  it('is refused by the shape check when off the contract', () => {
    const payload = build('hi')
    expect(isPushPayload({ ...payload, v: 2 })).toBe(false)
    expect(isPushPayload({ ...payload, messageId: 7 })).toBe(false)
    expect(isPushPayload({ ...payload, url: undefined })).toBe(false)
    expect(isPushPayload('{"v":1}')).toBe(false)
  })
})
