import { DEV } from '@tandem/contract/dev'
import { TandemError, bindLiveResources, type ResourceEntry } from '@tandem/core'
import { useEffect } from 'react'
import { useTandem } from './use-tandem.js'

/** `live: true`: the binding (and its ref-counting) lives in @tandem/realtime; this only mounts it. */
export function useLive(entry: ResourceEntry<unknown>, live: boolean): void {
  const { cache, realtime } = useTandem()
  if (live && !realtime)
    throw new TandemError(
      DEV && process.env.NODE_ENV !== 'production'
        ? 'live: true needs a realtime connection: <TandemProvider client={client} realtime={createRealtime({ client })}>.'
        : 'live: no_realtime',
      { code: 'no_realtime' },
    )
  // The entry is the key: one object per cached query, so a re-render with equal params binds nothing new.
  useEffect(
    () => (live && realtime ? bindLiveResources(realtime, cache, entry.query) : undefined),
    [live, realtime, cache, entry],
  )
}
