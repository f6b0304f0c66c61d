// Web Push's rules (src/push.ts): the key and endpoint patterns say what the limits say, and the
// one shape check of a payload (isPushPayload, on the generated line) takes the contract's only.
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
})
