// Web Push's REST face over real HTTP (src/push/routes.ts, subscriptions.ts): register, list,
// update, remove, the limits, the bad input the contract refuses, who may, and the token-free renew.
// (Every constraint of every body is also broken once by the generated cases: spec/rest-inputs.test.ts.)
import { PUSH, type PushSubscriptionRecord } from '@tandem/contract'
import { FIRST_PUSH_SUBSCRIPTION, SEEDED } from '@tandem/contract/spec'
import { describe, expect, it } from 'vitest'
import { RAW_KEY } from '../spec/documented.js'
import { call, expectError } from '../helpers.js'
import { browserSubscription } from '../../../../../test/utils/push-receiver.js'
import { usePushEmulator } from './push-fixture.js'

const f = usePushEmulator()
const PATH = '/realtime/v1/push/subscriptions'

const post = (token: string | undefined, json: unknown, path = PATH) =>
  call(f.emu(), path, { method: 'POST', ...(token ? { token } : {}), json })
const list = async (token: string) =>
  ((await (await call(f.emu(), PATH, { token })).json()) as { data: PushSubscriptionRecord[] }).data
const valid = (endpoint = 'https://push.example/send/1') => {
  const { keys } = browserSubscription(endpoint)
  return { endpoint, keys }
}

describe('push subscriptions', () => {
  it('registers (201), lists without the keys, updates the same endpoint (200) and removes (204)', async () => {
    const token = await f.customer()
    const body = valid()
    const created = (await (await post(token, body)).json()) as PushSubscriptionRecord
    expect(created).toMatchObject({ endpoint: body.endpoint, kind: 'customer', mailboxIds: null, url: null })
    expect(created.id).toMatch(/^psb_/)
    expect(JSON.stringify(await list(token))).not.toContain(body.keys.auth)
    const again = await post(token, { ...body, url: 'https://app.example/c/{conversationId}' })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ id: created.id, url: 'https://app.example/c/{conversationId}' })
    expect((await list(token)).map((s) => s.id)).toEqual([created.id])
    expect((await call(f.emu(), `${PATH}/${created.id}`, { method: 'DELETE', token })).status).toBe(204)
    expect(await list(token)).toEqual([])
    await expectError(
      await call(f.emu(), `${PATH}/${created.id}`, { method: 'DELETE', token }),
      404,
      'push_subscription_not_found',
    )
  })

  it('gives the first registration of a fresh emulator the id the contract’s examples name', async () => {
    f.emu().reset()
    const first = (await (await post(await f.customer(), valid())).json()) as PushSubscriptionRecord
    expect(first.id).toBe(FIRST_PUSH_SUBSCRIPTION)
  })

  it('keeps each subject’s own: another subject’s id is a 404, its list is its own', async () => {
    const mine = (await (await post(await f.customer(), valid())).json()) as PushSubscriptionRecord
    const agent = await f.agent()
    expect(await list(agent)).toEqual([])
    await expectError(
      await call(f.emu(), `${PATH}/${mine.id}`, { method: 'DELETE', token: agent }),
      404,
      'push_subscription_not_found',
    )
    expect(await list(await f.customer())).toHaveLength(1)
  })

  it(`holds ${PUSH.subscriptionsPerSubject} per subject: the next replaces the oldest`, async () => {
    const token = await f.customer()
    const endpoints = Array.from({ length: PUSH.subscriptionsPerSubject + 1 }, (_, i) => `https://push.example/s/${i}`)
    for (const endpoint of endpoints) expect((await post(token, valid(endpoint))).status).toBe(201)
    const held = (await list(token)).map((s) => s.endpoint)
    expect(held).toEqual(endpoints.slice(1))
  })

  it('takes an agent’s mailboxes (up to the limit), never a customer’s', async () => {
    const agent = await f.agent()
    const ids = Array.from({ length: PUSH.mailboxIds }, (_, i) => `mbx_${i}`)
    expect((await post(agent, { ...valid(), mailboxIds: ids })).status).toBe(201)
    const over = await expectError(
      await post(agent, { ...valid('https://push.example/2'), mailboxIds: [...ids, 'mbx_over'] }),
      400,
      'invalid_parameter',
    )
    expect(over.error.details?.[0]).toMatchObject({ field: 'mailboxIds' })
    const customer = await expectError(
      await post(await f.customer(), { ...valid(), mailboxIds: [SEEDED.mailboxId] }),
      400,
      'invalid_parameter',
    )
    expect(customer.error.details?.[0]).toMatchObject({ field: 'mailboxIds' })
  })

  const key = (bytes: number, first = 4) =>
    Buffer.concat([Buffer.from([first]), Buffer.alloc(bytes - 1, 7)]).toString('base64url')
  const secret = (bytes: number) => Buffer.alloc(bytes, 9).toString('base64url')
  const { keys } = valid()
  it.each([
    ['an http: endpoint', { endpoint: 'http://push.example/send/1' }, 'endpoint'],
    ['a relative endpoint', { endpoint: '/send/1' }, 'endpoint'],
    ['an endpoint with credentials', { endpoint: 'https://user:pass@push.example/send/1' }, 'endpoint'],
    ['an endpoint with a fragment', { endpoint: 'https://push.example/send/1#x' }, 'endpoint'],
    ['an endpoint past 2048 characters', { endpoint: `https://push.example/${'a'.repeat(2048)}` }, 'endpoint'],
    ['a 64-byte p256dh', { keys: { ...keys, p256dh: key(64) } }, 'keys.p256dh'],
    ['a 66-byte p256dh', { keys: { ...keys, p256dh: key(66) } }, 'keys.p256dh'],
    ['a compressed point', { keys: { ...keys, p256dh: key(65, 2) } }, 'keys.p256dh'],
    ['a padded p256dh', { keys: { ...keys, p256dh: `${keys.p256dh}=` } }, 'keys.p256dh'],
    ['a 15-byte auth', { keys: { ...keys, auth: secret(15) } }, 'keys.auth'],
    ['a 17-byte auth', { keys: { ...keys, auth: secret(17) } }, 'keys.auth'],
    ['an unknown field', { extra: true }, 'extra'],
    ['an unknown field in keys', { keys: { ...keys, extra: 'x' } }, 'keys.extra'],
    ['a click url on a plain-http host', { url: 'http://app.example/' }, 'url'],
  ])('refuses %s (400, naming the field)', async (_, change, field) => {
    const res = await post(await f.customer(), { ...valid(), ...change })
    const body = await expectError(res, 400, 'invalid_parameter')
    expect(body.error.details?.[0]?.field).toBe(field)
  })

  it('accepts a loopback http click url (a developer’s machine)', async () => {
    const res = await post(await f.customer(), { ...valid(), url: 'http://localhost:5173/?c={conversationId}' })
    expect(res.status).toBe(201)
  })

  it('is for people: the app’s raw key is refused push_not_allowed, a token without support insufficient_scope', async () => {
    await expectError(await post(RAW_KEY, valid()), 403, 'push_not_allowed')
    const realtimeOnly = await f.emu().mintToken({ scope: ['realtime'] })
    await expectError(await post(realtimeOnly, valid()), 403, 'insufficient_scope')
    await expectError(await call(f.emu(), PATH), 401, 'missing_token')
  })

  it('renews with no token, on the old endpoint and its secret; another secret is the same 404', async () => {
    const token = await f.customer()
    const old = valid('https://push.example/old')
    const created = (await (await post(token, old)).json()) as PushSubscriptionRecord
    const next = valid('https://push.example/new')
    const wrong = await post(
      undefined,
      { oldEndpoint: old.endpoint, auth: next.keys.auth, subscription: next },
      `${PATH}/renew`,
    )
    await expectError(wrong, 404, 'push_subscription_not_found')
    const none = await post(
      undefined,
      { oldEndpoint: 'https://push.example/nope', auth: old.keys.auth, subscription: next },
      `${PATH}/renew`,
    )
    await expectError(none, 404, 'push_subscription_not_found')
    const renewed = await post(
      undefined,
      { oldEndpoint: old.endpoint, auth: old.keys.auth, subscription: next },
      `${PATH}/renew`,
    )
    expect(renewed.status).toBe(200)
    expect(await renewed.json()).toMatchObject({ id: created.id, endpoint: next.endpoint, kind: 'customer' })
    expect((await list(token)).map((s) => s.endpoint)).toEqual([next.endpoint])
    // Token-free is not credential-blind: a key in the URL is still refused.
    const keyInUrl = await post(
      undefined,
      { oldEndpoint: next.endpoint, auth: next.keys.auth, subscription: old },
      `${PATH}/renew?key=x`,
    )
    await expectError(keyInUrl, 401, 'key_in_url')
  })

  it('publishes the VAPID key it signs with, and forgets every subscription on reset()', async () => {
    const token = await f.customer()
    const { publicKey } = (await (await call(f.emu(), '/realtime/v1/push/key', { token })).json()) as {
      publicKey: string
    }
    expect(publicKey).toBe(f.emu().push.publicKey)
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(PUSH.publicKeyBytes)
    await post(token, valid())
    f.emu().reset()
    expect(await list(token)).toEqual([])
  })
})
