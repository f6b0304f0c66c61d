import type { Activity, ResourceLock, ResourcePresenceStatus } from '@tandem/realtime/resource-presence'
import { describe, expectTypeOf, it } from 'vitest'
import { useCollectionPresence, useResourcePresence } from '../resource-presence.js'

// Nothing here runs: hooks are called only for their types.
describe('resource presence hooks', () => {
  it('useResourcePresence', () => {
    const here = useResourcePresence('support/conversations', 'cnv_1', { name: 'Ada' })
    expectTypeOf(here.viewers[0]!.data.name).toEqualTypeOf<string | null | undefined>()
    expectTypeOf(here.typing[0]!.clientId).toEqualTypeOf<string>()
    expectTypeOf(here.lock).toEqualTypeOf<ResourceLock | null>()
    expectTypeOf(here.status).toEqualTypeOf<ResourcePresenceStatus>()
    expectTypeOf(here.setTyping).parameters.toEqualTypeOf<[boolean]>()
    expectTypeOf(here.claimLock).parameter(0).toEqualTypeOf<{ ttlMs?: number } | undefined>()
  })

  it('useCollectionPresence', () => {
    const rows = useCollectionPresence('support/conversations')
    expectTypeOf(rows).toEqualTypeOf<ReadonlyMap<string, Activity>>()
  })

  it('takes only the collections that have presence', () => {
    // @ts-expect-error: a typo of the path
    useResourcePresence('support/conversatoins', 'cnv_1')
    // @ts-expect-error: mailboxes have no resource presence
    useCollectionPresence('support/mailboxes')
  })
})
