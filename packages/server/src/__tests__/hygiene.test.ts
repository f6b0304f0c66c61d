import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as server from '../index.js'
import { mintToken, signWebhook, verifyToken, verifyWebhook } from '../index.js'
import { APP, KID, NOW, OLD_SECRET, SECRET } from './fixtures.js'

describe('no error message contains the token or the secret', () => {
  it('holds for every verifyToken refusal', async () => {
    const { token } = await mintToken({
      appId: APP,
      keyId: KID,
      secret: SECRET,
      subject: 'user_1',
      scope: ['maps'],
      now: NOW,
    })
    const [h, p, s] = token.split('.')
    const attempts: Array<Promise<unknown>> = [
      verifyToken(token, { keys: { [KID]: SECRET }, appId: APP, now: NOW + 3_600_000 }), // expired
      verifyToken(token, { keys: { [KID]: OLD_SECRET }, appId: APP, now: NOW }), // invalid_signature
      verifyToken(token, { keys: { other: SECRET }, appId: APP, now: NOW }), // unknown_key
      verifyToken(token, { keys: { [KID]: SECRET }, appId: 'app_x', now: NOW }), // wrong_app
      verifyToken(`${h}.${p}.${s}x`, { keys: { [KID]: SECRET }, appId: APP, now: NOW }), // malformed
      verifyToken(token, { keys: { [KID]: SECRET }, appId: APP, now: NOW - 3_600_000 }), // not yet valid
    ]
    const errors = await Promise.all(
      attempts.map((a) =>
        a.then(
          () => null,
          (e: unknown) => e as Error,
        ),
      ),
    )
    expect(errors.map((e) => (e as server.TokenError).code).sort()).toEqual([
      'invalid_signature',
      'malformed_token',
      'token_expired',
      'token_not_yet_valid',
      'unknown_key',
      'wrong_app',
    ])
    for (const error of errors) {
      const text = `${String(error?.message)} ${String(error?.stack)} ${JSON.stringify(error)}`
      for (const needle of [token, SECRET, OLD_SECRET, p ?? '', s ?? '', 'user_1']) expect(text).not.toContain(needle)
    }
  })

  it('holds for webhook refusals and argument errors', async () => {
    const header = await signWebhook('{}', SECRET, Math.floor(NOW / 1000))
    const errors = await Promise.all(
      [
        verifyWebhook({ body: '{"x":1}', header, secret: SECRET, now: NOW }),
        verifyWebhook({ body: '{}', header, secret: SECRET, now: NOW + 3_600_000 }),
        verifyWebhook({ body: '{}', header: `${header}zz`, secret: SECRET, now: NOW }),
        mintToken({ appId: APP, keyId: KID, secret: SECRET, subject: '', scope: [] }),
        mintToken({ appId: APP, keyId: KID, secret: SECRET, subject: 'u', scope: [SECRET + ' x'] }),
      ].map((a) =>
        a.then(
          () => null,
          (e: unknown) => e as Error,
        ),
      ),
    )
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error)
      for (const needle of [SECRET, header.slice(-64)]) expect(error?.message).not.toContain(needle)
    }
  })
})

describe('package hygiene', () => {
  it('imports no node: modules and no bare Node builtins in src', () => {
    const dir = join(import.meta.dirname, '..')
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'))
    expect(files.length).toBeGreaterThan(10)
    for (const file of files) {
      const source = readFileSync(join(dir, file), 'utf8')
      expect(source, file).not.toMatch(/from\s+['"](node:|fs|path|crypto|buffer|http)['"/]/)
      expect(source, file).not.toMatch(/\b(Buffer|process|require)\b[.(]/)
      expect(source.split('\n').length, file).toBeLessThan(300)
    }
  })

  it('leaves JWTs to jose: one HMAC helper (webhooks), no hand-written base64 or JWT parsing', () => {
    const dir = join(import.meta.dirname, '..')
    const sources = new Map(
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
    )
    const using = (pattern: RegExp) => [...sources].filter(([, source]) => pattern.test(source)).map(([file]) => file)
    expect(using(/crypto\.subtle/)).toEqual(['webhook-hmac.ts'])
    expect(using(/\b(atob|btoa)\(/)).toEqual([])
    expect(using(/from 'jose'/).sort()).toEqual([
      'decode-token.ts',
      'mint-token.ts',
      'token-error.ts',
      'verify-token.ts',
    ])
  })

  it('exports the public API by name', () => {
    expect(Object.keys(server).sort()).toEqual([
      'DEFAULTS',
      'TokenError',
      'WebhookClaimError',
      'WebhookError',
      'createMemoryReplayStore',
      'createTokenHandler',
      'createWebhookHandler',
      'decodeToken',
      'mintToken',
      'scopeAllows',
      'signWebhook',
      'toNodeListener',
      'verifyToken',
      'verifyWebhook',
    ])
    expect(server.DEFAULTS).toMatchObject({
      ttlSeconds: 600,
      minTtlSeconds: 60,
      maxTtlSeconds: 86_400,
      webhookToleranceSeconds: 300,
      webhookLeaseSeconds: 30,
      clockToleranceSeconds: 5,
    })
  })
})
