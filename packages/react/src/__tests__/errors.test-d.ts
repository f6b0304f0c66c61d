import type { RealtimeError, TandemError } from '@tandem/core'
import { describe, expectTypeOf, it } from 'vitest'
import { useMutation, usePlaceAutocomplete, useQuery, useResource, useResources } from '../index.js'
import { useCustomerConversations, useCustomerThread, useHelpSearch, useUnreadCount } from '../messenger.js'
import { useConnectionState, useMessages } from '../realtime.js'

// Every error a hook exposes is a TandemError, so its `code` compiles (issue 45, row 4: `liveError`
// was `Error | null` while docs/react.md describes it by its codes). Nothing here runs: the hooks
// are called only for their types.
describe('the errors hooks expose', () => {
  it('useResources and useResource: error and liveError, each with its code', () => {
    const list = useResources('support/conversations', { status: 'active' }, { live: true })
    expectTypeOf(list.error).toEqualTypeOf<TandemError | null>()
    expectTypeOf(list.liveError).toEqualTypeOf<TandemError | null>()
    expectTypeOf(list.liveError?.code).toEqualTypeOf<string | undefined>()
    // As docs/react.md "Live lists" has it: a token without the realtime scope is `forbidden`.
    const notLive: boolean = list.liveError?.code === 'forbidden'
    expectTypeOf(notLive).toBeBoolean()
    const one = useResource('support/conversations', 'conv_1', { live: true })
    expectTypeOf(one.error?.code).toEqualTypeOf<string | undefined>()
    expectTypeOf(one.liveError?.requestId).toEqualTypeOf<string | undefined>()
  })

  it('useQuery and useMutation: the client’s errors, or what your own function threw, wrapped', () => {
    const q = useQuery(['k'], async () => 1)
    expectTypeOf(q.error).toEqualTypeOf<TandemError | null>()
    const m = useMutation(async (n: number) => n, {
      onError: (error) => expectTypeOf(error.code).toBeString(),
      onSettled: (_data, error) => expectTypeOf(error).toEqualTypeOf<TandemError | null>(),
    })
    expectTypeOf(m.error).toEqualTypeOf<TandemError | null>()
    expectTypeOf(m.error?.code).toEqualTypeOf<string | undefined>()
  })

  it('the realtime, autocomplete and messenger hooks', () => {
    expectTypeOf(useConnectionState().error).toEqualTypeOf<RealtimeError | undefined>()
    expectTypeOf(useMessages('chat:lobby').error).toEqualTypeOf<RealtimeError | undefined>()
    expectTypeOf(usePlaceAutocomplete().error).toEqualTypeOf<TandemError | null>()
    expectTypeOf(useUnreadCount().error).toEqualTypeOf<TandemError | null>()
    expectTypeOf(useCustomerConversations().error).toEqualTypeOf<TandemError | null>()
    expectTypeOf(useCustomerThread('conv_1').error).toEqualTypeOf<TandemError | null>()
    expectTypeOf(useHelpSearch('export').error).toEqualTypeOf<TandemError | null>()
  })
})
