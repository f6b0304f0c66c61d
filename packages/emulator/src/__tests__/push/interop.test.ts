// Interoperability: what the emulator pushes is what a browser's push service would take. The
// payload, sent to a local HTTPS receiver, decrypts with an independent RFC 8291 implementation
// (http_ece) and the subscription's private key; the VAPID JWT (RFC 8292) verifies with jose
// against the published key and names the endpoint's origin and a near expiry; TTL and Urgency
// are the contract's.
import { isPushPayload, PUSH, customerChannelName, type PushPayload } from '@tandem/contract'
import { SEEDED } from '@tandem/contract/spec'
import { importJWK, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { VAPID_SUBJECT } from '../../push/sender.js'
import { call } from '../helpers.js'
import { decryptPush } from '../../../../../test/utils/push-receiver.js'
import { CONVERSATION, usePushEmulator } from './push-fixture.js'

const f = usePushEmulator({ graceMs: 50 })

/** The VAPID key as a JWK: an uncompressed point is 0x04 ‖ x ‖ y. */
async function vapidKey(publicKey: string) {
  const point = Buffer.from(publicKey, 'base64url')
  const [x, y] = [point.subarray(1, 33), point.subarray(33)].map((b) => b.toString('base64url'))
  return importJWK({ kty: 'EC', crv: 'P-256', x: x!, y: y! }, 'ES256')
}

describe('push interoperability', () => {
  it('sends a payload http_ece decrypts with the subscription’s key, shaped as the contract says', async () => {
    const { sub } = await f.subscribe(await f.customer(), 201, { url: 'https://app.example/help?c={conversationId}' })
    const reply = await f.reply('Your parcel left the depot this morning.')
    await f.receiver().waitFor(() => f.receiver().at(sub.endpoint).length === 1, 'the push')
    const [hit] = f.receiver().at(sub.endpoint)
    expect(hit!.headers['content-encoding']).toBe('aes128gcm')
    const payload = decryptPush(hit!.body, sub) as PushPayload
    expect(isPushPayload(payload)).toBe(true)
    expect(payload).toEqual({
      v: 1,
      type: 'message',
      channel: customerChannelName(SEEDED.customerId),
      messageId: reply.id,
      conversationId: CONVERSATION,
      title: reply.author.name,
      body: 'Your parcel left the depot this morning.',
      url: `https://app.example/help?c=${CONVERSATION}`,
      sentAt: reply.createdAt,
    })
    // The recorded delivery holds the same plaintext.
    const delivered = await f.delivery((d) => d.messageId === reply.id && d.status === 'sent')
    expect(delivered.payload).toEqual(payload)
    expect(delivered.httpStatus).toBe(201)
  })

  it('signs with VAPID: the JWT verifies with the published key, aud the endpoint’s origin, exp within 24 h', async () => {
    const { sub } = await f.subscribe(await f.customer())
    const token = await f.customer()
    const { publicKey } = (await (await call(f.emu(), '/realtime/v1/push/key', { token })).json()) as {
      publicKey: string
    }
    const before = Math.floor(Date.now() / 1000)
    await f.reply()
    await f.receiver().waitFor(() => f.receiver().at(sub.endpoint).length === 1, 'the push')
    const { headers } = f.receiver().at(sub.endpoint)[0]!
    const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(String(headers.authorization))
    expect(match, String(headers.authorization)).not.toBeNull()
    expect(match![2]).toBe(publicKey)
    const origin = new URL(sub.endpoint).origin
    const { payload, protectedHeader } = await jwtVerify(match![1]!, await vapidKey(publicKey), { audience: origin })
    expect(protectedHeader.alg).toBe('ES256')
    expect(payload.aud).toBe(origin)
    expect(payload.sub).toBe(VAPID_SUBJECT)
    expect(payload.sub).toMatch(/^mailto:/)
    expect(payload.exp).toBeGreaterThan(before)
    expect(payload.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 24 * 3600)
    // A key that is not the emulator's does not verify it.
    const other = (await import('web-push')).default.generateVAPIDKeys().publicKey
    await expect(jwtVerify(match![1]!, await vapidKey(other), { audience: origin })).rejects.toThrow()
    expect(headers.ttl).toBe(String(PUSH.ttlSeconds))
    expect(headers.urgency).toBe(PUSH.urgency)
  })

  it('keeps the payload within the byte limit: a long text is shortened, to the characters and the bytes', async () => {
    const { sub } = await f.subscribe(await f.customer())
    await f.reply('€'.repeat(5000))
    await f.receiver().waitFor(() => f.receiver().at(sub.endpoint).length === 1, 'the push')
    const payload = decryptPush(f.receiver().at(sub.endpoint)[0]!.body, sub) as PushPayload
    expect(Array.from(payload.body)).toHaveLength(PUSH.bodyChars)
    expect(payload.body.endsWith('…')).toBe(true)
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(PUSH.payloadBytes)
  })
})
