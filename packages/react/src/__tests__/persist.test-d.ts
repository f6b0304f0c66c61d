import type {
  CachePersister,
  DurableOutbox,
  OutboxEntry,
  OutboxSnapshot,
  OutboxStatus,
  PersistSnapshot,
  RestoreResult,
  StorageMode,
} from '@tandem/core/persist'
import type { ReactNode } from 'react'
import { describe, expectTypeOf, it } from 'vitest'
import { PersistGate, useOutbox, usePersistStatus, type PersistGateProps } from '../persist.js'

declare const persister: CachePersister
declare const outbox: DurableOutbox

// Nothing here runs: hooks and the gate are called only for their types.
describe('@tandem/react/persist', () => {
  it('usePersistStatus is the persister’s snapshot', () => {
    const status = usePersistStatus(persister)
    expectTypeOf(status).toEqualTypeOf<PersistSnapshot>()
    expectTypeOf(status.status).toEqualTypeOf<'restoring' | 'restored'>()
    expectTypeOf(status.mode).toEqualTypeOf<StorageMode>()
    expectTypeOf(status.restore).toEqualTypeOf<RestoreResult | undefined>()
    // @ts-expect-error: a durable outbox is not a cache persister
    usePersistStatus(outbox)
    // @ts-expect-error: the persister is required (only the gate takes undefined)
    usePersistStatus(undefined)
  })

  it('useOutbox is the outbox’s snapshot, its entries read-only', () => {
    const snapshot = useOutbox(outbox)
    expectTypeOf(snapshot).toEqualTypeOf<OutboxSnapshot>()
    expectTypeOf(snapshot.status).toEqualTypeOf<OutboxStatus>()
    expectTypeOf(snapshot.entries).toEqualTypeOf<readonly OutboxEntry[]>()
    const [first] = snapshot.entries
    if (first?.kind === 'rest') expectTypeOf(first.request.path).toEqualTypeOf<string>()
    // @ts-expect-error: the entries are the outbox's, not the app's to change
    snapshot.entries.push(first!)
    // @ts-expect-error: a cache persister is not an outbox
    useOutbox(persister)
  })

  it('PersistGate takes a persister or undefined, a fallback and children', () => {
    expectTypeOf<PersistGateProps['persister']>().toEqualTypeOf<CachePersister | undefined>()
    expectTypeOf<PersistGateProps['fallback']>().toEqualTypeOf<ReactNode>()
    PersistGate({ persister, fallback: 'Loading…', children: null })
    PersistGate({ persister: undefined })
    // @ts-expect-error: `persister` must be said, even to switch persistence off
    PersistGate({ children: null })
    // @ts-expect-error: an outbox does not restore anything
    PersistGate({ persister: outbox })
  })
})
