import { describe, expect, it } from 'vitest'
import { signWebhook, verifyWebhook, WebhookError } from '../index.js'
import { createHmac } from 'node:crypto'
import { NOW, seeded } from './fixtures.js'

const SECRET = 'whsec_test_3f9a1b7c5d2e8f4a6b0c9d1e'
const OLD = 'whsec_test_old_77aa66bb55cc44dd'
const BODY = JSON.stringify({ type: 'ticket.created', data: { id: 't_1', text: 'héllo' } })
const T = Math.floor(NOW / 1000)

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(WebhookError)
  return (error as WebhookError).code
}

describe('signWebhook', () => {
  it('produces t=<ts>,v1=<hex HMAC-SHA256(secret, "t.body")>', async () => {
    const header = await signWebhook(BODY, SECRET, T)
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex')
    expect(header).toBe(`t=${T},v1=${expected}`)
  })

  it('defaults the timestamp to now and validates its input', async () => {
    const before = Math.floor(Date.now() / 1000)
    const header = await signWebhook(BODY, SECRET)
    expect(Number(/^t=(\d+),/.exec(header)?.[1])).toBeGreaterThanOrEqual(before)
    await expect(signWebhook(BODY, '')).rejects.toThrow(TypeError)
    await expect(signWebhook(BODY, SECRET, 1.5)).rejects.toThrow(RangeError)
  })
})

describe('verifyWebhook', () => {
  it('round-trips', async () => {
    const header = await signWebhook(BODY, SECRET, T)
    await expect(verifyWebhook({ body: BODY, header, secret: SECRET, now: NOW })).resolves.toEqual({ timestamp: T })
  })

  it('refuses a tampered body, a wrong secret and a tampered timestamp', async () => {
    const header = await signWebhook(BODY, SECRET, T)
    expect(await codeOf(verifyWebhook({ body: `${BODY} `, header, secret: SECRET, now: NOW }))).toBe(
      'invalid_signature',
    )
    expect(await codeOf(verifyWebhook({ body: BODY, header, secret: 'whsec_other', now: NOW }))).toBe(
      'invalid_signature',
    )
    const moved = header.replace(`t=${T}`, `t=${T + 1}`)
    expect(await codeOf(verifyWebhook({ body: BODY, header: moved, secret: SECRET, now: NOW }))).toBe(
      'invalid_signature',
    )
  })

  it('accepts any of several secrets and any of several v1 entries (rotation)', async () => {
    const oldHeader = await signWebhook(BODY, OLD, T)
    await expect(verifyWebhook({ body: BODY, header: oldHeader, secret: [SECRET, OLD], now: NOW })).resolves.toEqual({
      timestamp: T,
    })
    expect(await codeOf(verifyWebhook({ body: BODY, header: oldHeader, secret: [SECRET], now: NOW }))).toBe(
      'invalid_signature',
    )
    const newSig = (await signWebhook(BODY, SECRET, T)).split(',')[1]
    const both = `${oldHeader},${newSig}`
    await expect(verifyWebhook({ body: BODY, header: both, secret: SECRET, now: NOW })).resolves.toEqual({
      timestamp: T,
    })
    await expect(
      verifyWebhook({
        body: BODY,
        header: both.toUpperCase().replace('T=', 't=').replace(/V1=/g, 'v1='),
        secret: OLD,
        now: NOW,
      }),
    ).resolves.toBeTruthy()
  })

  it('enforces the replay window both ways', async () => {
    const header = await signWebhook(BODY, SECRET, T)
    await expect(verifyWebhook({ body: BODY, header, secret: SECRET, now: NOW + 300_000 })).resolves.toBeTruthy()
    await expect(verifyWebhook({ body: BODY, header, secret: SECRET, now: NOW - 300_000 })).resolves.toBeTruthy()
    expect(await codeOf(verifyWebhook({ body: BODY, header, secret: SECRET, now: NOW + 301_000 }))).toBe(
      'timestamp_out_of_range',
    )
    expect(await codeOf(verifyWebhook({ body: BODY, header, secret: SECRET, now: NOW - 301_000 }))).toBe(
      'timestamp_out_of_range',
    )
    expect(
      await codeOf(verifyWebhook({ body: BODY, header, secret: SECRET, now: NOW + 11_000, toleranceSeconds: 10 })),
    ).toBe('timestamp_out_of_range')
    const stale = await signWebhook(BODY, SECRET, T - 3600)
    const error = (await verifyWebhook({ body: BODY, header: stale, secret: SECRET, now: NOW }).catch(
      (e: unknown) => e,
    )) as WebhookError
    expect([error.code, error.status]).toEqual(['timestamp_out_of_range', 401])
  })

  const hex = 'a'.repeat(64)
  it.each<[string, unknown, string]>([
    ['undefined', undefined, 'missing_signature'],
    ['null', null, 'missing_signature'],
    ['empty', '', 'missing_signature'],
    ['a number', 42, 'malformed_signature'],
    ['no equals', 'garbage', 'malformed_signature'],
    ['no timestamp', `v1=${hex}`, 'malformed_signature'],
    ['no v1', `t=${T}`, 'malformed_signature'],
    ['only unknown schemes', `t=${T},v0=${hex}`, 'malformed_signature'],
    ['two timestamps', `t=${T},t=${T},v1=${hex}`, 'malformed_signature'],
    ['negative timestamp', `t=-5,v1=${hex}`, 'malformed_signature'],
    ['exponent timestamp', `t=1e9,v1=${hex}`, 'malformed_signature'],
    ['fractional timestamp', `t=1.5,v1=${hex}`, 'malformed_signature'],
    ['short v1', `t=${T},v1=abc`, 'malformed_signature'],
    ['non-hex v1', `t=${T},v1=${'z'.repeat(64)}`, 'malformed_signature'],
    ['too many v1', `t=${T}${`,v1=${hex}`.repeat(9)}`, 'malformed_signature'],
    ['huge header', `t=${T},v1=${hex},x=${'y'.repeat(10_000)}`, 'malformed_signature'],
    ['well-formed but wrong', `t=${T},v1=${hex}`, 'invalid_signature'],
  ])('header %s → %s', async (_name, header, code) => {
    expect(await codeOf(verifyWebhook({ body: BODY, header: header as string, secret: SECRET, now: NOW }))).toBe(code)
  })

  it('reports status 400 for unparseable headers and 401 for bad signatures', async () => {
    const missing = (await verifyWebhook({ body: BODY, header: null, secret: SECRET }).catch(
      (e: unknown) => e,
    )) as WebhookError
    expect([missing.name, missing.status]).toEqual(['WebhookError', 400])
    const wrong = (await verifyWebhook({ body: BODY, header: `t=${T},v1=${hex}`, secret: SECRET, now: NOW }).catch(
      (e: unknown) => e,
    )) as WebhookError
    expect(wrong.status).toBe(401)
  })

  it('only ever throws WebhookError for random headers and bodies (seeded, bounded)', async () => {
    const random = seeded(0xbeef)
    const alphabet = 'tv1=,0123456789abcdef ABC\u00e9'
    const valid = await signWebhook(BODY, SECRET, T)
    for (let i = 0; i < 300; i++) {
      const header =
        i % 2 === 0
          ? Array.from(
              { length: Math.floor(random() * 90) },
              () => alphabet[Math.floor(random() * alphabet.length)],
            ).join('')
          : valid.slice(0, Math.floor(random() * valid.length))
      const body = i % 3 === 0 ? (i as unknown as string) : BODY
      const outcome: unknown = await verifyWebhook({ body, header, secret: SECRET, now: NOW }).catch((e: unknown) => e)
      expect(outcome).toBeInstanceOf(WebhookError)
    }
  })

  it('rejects misconfigured options with a TypeError', async () => {
    const header = await signWebhook(BODY, SECRET, T)
    await expect(verifyWebhook({ body: BODY, header, secret: [], now: NOW })).rejects.toThrow(TypeError)
    await expect(verifyWebhook({ body: BODY, header, secret: '', now: NOW })).rejects.toThrow(TypeError)
    await expect(verifyWebhook({ body: BODY, header, secret: SECRET, toleranceSeconds: -1 })).rejects.toThrow(TypeError)
  })
})
