// Web Push's rules (src/push.ts): the key and endpoint patterns say what the limits say, and the
// one shape check of a payload (isPushPayload, on the generated line) takes the contract's only, and
// the one derivation of a payload (pushPayloadOf: the emulator's and a hidden tab's) keeps to the limits.
import { createECDH, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  isPushPayload,
  PUSH,
  PUSH_AUTH,
  PUSH_ENDPOINT,
  PUSH_P256DH,
  PUSH_PUBLIC_KEY,
  PUSH_URGENCIES,
  PUSH_URL,
  pushPayloadBytes,
  pushPayloadOf,
  type PushPayload,
} from '../index.js'

const b64 = (bytes: Buffer) => bytes.toString('base64url')
const point = () => {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return ecdh.getPublicKey()
}

describe('push rules', () => {
  it('takes every real P-256 key and 16-byte secret, and nothing of another length', () => {
    for (let i = 0; i < 200; i++) {
      expect(PUSH_P256DH.test(b64(point()))).toBe(true)
      expect(PUSH_AUTH.test(b64(randomBytes(PUSH.authBytes)))).toBe(true)
    }
    expect(b64(point())).toHaveLength(Math.ceil((PUSH.p256dhBytes * 4) / 3))
    expect(PUSH_PUBLIC_KEY.source).toBe(PUSH_P256DH.source)
    for (const bytes of [PUSH.p256dhBytes - 1, PUSH.p256dhBytes + 1])
      expect(PUSH_P256DH.test(b64(Buffer.concat([Buffer.from([4]), randomBytes(bytes - 1)])))).toBe(false)
    // A compressed point (0x02/0x03), and the same bytes padded, are not what a browser gives.
    expect(PUSH_P256DH.test(b64(Buffer.concat([Buffer.from([2]), randomBytes(64)])))).toBe(false)
    expect(PUSH_P256DH.test(`${b64(point())}=`)).toBe(false)
    for (const bytes of [PUSH.authBytes - 1, PUSH.authBytes + 1])
      expect(PUSH_AUTH.test(b64(randomBytes(bytes)))).toBe(false)
  })

  it('takes an absolute https endpoint only: no credentials, no fragment', () => {
    expect(PUSH_ENDPOINT.test('https://fcm.googleapis.com/fcm/send/abc:def')).toBe(true)
    expect(PUSH_ENDPOINT.test('https://127.0.0.1:8443/push/1?x=y')).toBe(true)
    for (const bad of [
      'http://push.example/1',
      '/push/1',
      'https://u:p@push.example/1',
      'https://push.example/1#f',
      'https://',
    ])
      expect(PUSH_ENDPOINT.test(bad), bad).toBe(false)
    expect(PUSH_URL.test('http://localhost:5173/?c={conversationId}')).toBe(true)
    expect(PUSH_URL.test('http://app.example/')).toBe(false)
  })

  it('sends an urgency RFC 8030 names', () => {
    expect(PUSH_URGENCIES).toContain(PUSH.urgency)
  })

  it('isPushPayload: the contract’s payload, version 1, and nothing else', () => {
    const payload: PushPayload = {
      v: 1,
      type: 'message',
      channel: 'support:customer:cus_1',
      messageId: 'thr_1',
      conversationId: 'cnv_1',
      title: 'Bea',
      body: 'Hi',
      url: null,
      sentAt: '2026-01-02T03:04:05.000Z',
    }
    expect(isPushPayload(payload)).toBe(true)
    for (const bad of [
      { ...payload, v: 2 },
      { ...payload, type: 'typing' },
      { ...payload, title: null },
      { ...payload, sentAt: 'yesterday' },
      { ...payload, url: 3 },
      null,
      'x',
    ])
      expect(isPushPayload(bad), JSON.stringify(bad)).toBe(false)
  })

  describe('pushPayloadOf', () => {
    const of = (text: string, title = 'Bea', url: string | null = null) =>
      pushPayloadOf({
        channel: 'support:customer:cus_1',
        messageId: 'thr_1',
        conversationId: 'cnv_a/b',
        title,
        text,
        url,
        sentAt: '2026-01-02T03:04:05.000Z',
      })

    it('derives the contract’s payload: white space folded, the url’s {conversationId} encoded', () => {
      const payload = of(
        '  Your   parcel\nis here ',
        'Bea',
        'https://app.example/c/{conversationId}?again={conversationId}',
      )
      expect(isPushPayload(payload)).toBe(true)
      expect(payload).toEqual({
        v: 1,
        type: 'message',
        channel: 'support:customer:cus_1',
        messageId: 'thr_1',
        conversationId: 'cnv_a/b',
        title: 'Bea',
        body: 'Your parcel is here',
        url: 'https://app.example/c/cnv_a%2Fb?again=cnv_a%2Fb',
        sentAt: '2026-01-02T03:04:05.000Z',
      })
      expect(of('hi', '   ').title).toBe('Tandem')
    })

    it('shortens the title and the body to the characters, never splitting a character', () => {
      const payload = of('😀'.repeat(PUSH.bodyChars + 10), 'N'.repeat(PUSH.titleChars + 1))
      expect(Array.from(payload.title)).toHaveLength(PUSH.titleChars)
      expect(payload.title.endsWith('…')).toBe(true)
      expect(Array.from(payload.body)).toHaveLength(PUSH.bodyChars)
      expect(payload.body).toMatch(/^(😀)+…$/u)
      expect(of('x'.repeat(PUSH.bodyChars)).body).toBe('x'.repeat(PUSH.bodyChars))
    })

    it('counts UTF-8 bytes and keeps within PUSH.payloadBytes: the body gives way first, then the url', () => {
      const emoji = of('😀é')
      expect(pushPayloadBytes(emoji)).toBe(Buffer.byteLength(JSON.stringify(emoji)))
      const fits = of('😀'.repeat(PUSH.bodyChars), 'Bea', `https://app.example/${'a'.repeat(2000)}`)
      expect(pushPayloadBytes(fits)).toBeLessThanOrEqual(PUSH.payloadBytes)
      expect(fits.url).not.toBeNull()
      expect(Array.from(fits.body).length).toBeLessThan(PUSH.bodyChars)
      const dropped = of('text', 'Bea', `https://app.example/${'é'.repeat(PUSH.endpointChars - 40)}`)
      expect(pushPayloadBytes(dropped)).toBeLessThanOrEqual(PUSH.payloadBytes)
      expect(dropped.url).toBeNull()
      expect(isPushPayload(dropped)).toBe(true)
    })
  })
})
