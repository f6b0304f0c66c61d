import type * as core from '@tandem/core'
import { durableOutbox } from '@tandem/core/persist'
import { describe, expectTypeOf, it } from 'vitest'
import {
  createRealtime,
  type PublishAck,
  type PublishOptions,
  type RealtimeOptions,
  type RequestOptions,
} from '../index.js'
import type * as tabs from '../tabs.js'

declare const source: Parameters<typeof createRealtime>[0]

describe('createRealtime(source, { outbox }) types', () => {
  it('takes a durable outbox, and a publish takes its idempotency key', () => {
    expectTypeOf<RealtimeOptions['outbox']>().toEqualTypeOf<core.OutboxLink | undefined>()
    const rt = createRealtime(source, { outbox: durableOutbox({ key: 'user:kim' }) })
    const ch = rt.channel('chat:lobby')
    expectTypeOf(ch.publish('message', {}, { idempotencyKey: 'order-42' })).resolves.toEqualTypeOf<PublishAck>()
    expectTypeOf<PublishOptions>().toExtend<RequestOptions>()
    expectTypeOf<PublishOptions['idempotencyKey']>().toEqualTypeOf<string | undefined>()
  })

  it('refuses what is not an outbox or a key', () => {
    // Never runs: the lines below must not compile.
    const never = () => {
      // @ts-expect-error: an outbox is an OutboxLink
      createRealtime(source, { outbox: { key: 'user:kim' } })
      // @ts-expect-error: a key is a string
      createRealtime(source).channel('c').publish('n', 1, { idempotencyKey: 42 })
    }
    expectTypeOf(never).toBeFunction()
  })

  it('the tab platform types are those of @tandem/core, re-exported unchanged', () => {
    expectTypeOf<tabs.LockManagerLike>().toEqualTypeOf<core.LockManagerLike>()
    expectTypeOf<tabs.BroadcastChannelLike>().toEqualTypeOf<core.BroadcastChannelLike>()
    expectTypeOf<tabs.BroadcastChannelConstructor>().toEqualTypeOf<core.BroadcastChannelConstructor>()
  })
})
