// The subscription store's endpoint index (what the token-free renew looks up) stays in step with
// register, the per-subject limit, remove, renew and reset; the secret is compared as bytes.
import { PUSH } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { SubscriptionStore, type Registration } from '../../push/subscriptions.js'
import { browserSubscription } from '../../../../../test/utils/push-receiver.js'

const reg = (endpoint: string, subject = 'cus_1', app = 'app_1'): Registration => ({
  app,
  subject,
  kind: 'customer',
  endpoint,
  keys: browserSubscription(endpoint).keys,
  mailboxIds: null,
  url: null,
  expirationTime: null,
})
const next = (endpoint: string) => ({ endpoint, keys: browserSubscription(endpoint).keys, expirationTime: null })

describe('the endpoint index', () => {
  it('follows renews: the old endpoint is found no more, the new one is', () => {
    const store = new SubscriptionStore(1)
    const a = reg('https://push.example/a')
    const { subscription } = store.register(a)
    // The same keys at the new endpoint: only the index can tell the old endpoint is not it any more.
    const b = { endpoint: 'https://push.example/b', keys: a.keys, expirationTime: null }
    expect(store.renew(a.endpoint, a.keys.auth, b).map((s) => s.id)).toEqual([subscription.id])
    expect(store.renew(a.endpoint, a.keys.auth, next('https://push.example/c'))).toEqual([])
    expect(store.withSecret(b.endpoint, a.keys.auth).map((s) => s.id)).toEqual([subscription.id])
  })

  it('forgets what the limit evicted, what was removed, and everything on reset', () => {
    const store = new SubscriptionStore(1)
    const first = reg('https://push.example/0')
    store.register(first)
    for (let i = 1; i <= PUSH.subscriptionsPerSubject; i++) store.register(reg(`https://push.example/${i}`))
    expect(store.withSecret(first.endpoint, first.keys.auth)).toEqual([])
    const last = reg('https://push.example/last', 'cus_2')
    const { subscription } = store.register(last)
    store.remove(subscription.id)
    expect(store.withSecret(last.endpoint, last.keys.auth)).toEqual([])
    const kept = reg('https://push.example/kept', 'cus_3', 'app_2')
    store.register(kept)
    expect(store.withSecret(kept.endpoint, kept.keys.auth)).toHaveLength(1)
    store.reset()
    expect(store.withSecret(kept.endpoint, kept.keys.auth)).toEqual([])
  })

  it('removes at an endpoint only while the subscription is still there', () => {
    const store = new SubscriptionStore(1)
    const a = reg('https://push.example/a')
    const { subscription } = store.register(a)
    store.renew(a.endpoint, a.keys.auth, next('https://push.example/b'))
    expect(store.removeAt(subscription.id, a.endpoint)).toBe(false)
    expect(store.removeAt(subscription.id, 'https://push.example/b')).toBe(true)
  })

  it('compares the secret as bytes: another length is no match (and no throw), the same bytes are', () => {
    const store = new SubscriptionStore(1)
    const a = reg('https://push.example/a')
    store.register(a)
    const bytes = Buffer.from(a.keys.auth, 'base64url')
    expect(store.withSecret(a.endpoint, bytes.subarray(0, 15).toString('base64url'))).toEqual([])
    expect(store.withSecret(a.endpoint, Buffer.concat([bytes, bytes]).toString('base64url'))).toEqual([])
    // 22 characters carry 132 bits for 16 bytes: the last character's low bits are not the secret.
    const last = a.keys.auth.at(-1)!
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const twin = a.keys.auth.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1]
    expect(Buffer.from(twin, 'base64url')).toEqual(bytes)
    expect(store.withSecret(a.endpoint, twin)).toHaveLength(1)
  })
})
