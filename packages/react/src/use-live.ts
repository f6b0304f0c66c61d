import type { CacheQuery } from '@tandem/core'
import { bindLiveResources } from '@tandem/realtime'
import { useEffect } from 'react'
import { useTandem } from './use-tandem.js'

/** `live: true`: the binding (and its ref-counting) lives in @tandem/realtime; this only mounts it. */
export function useLive(query: CacheQuery, live: boolean): void {
  const { client, realtime } = useTandem()
  if (live && !realtime)
    throw new Error(
      'live: true needs a realtime connection: <TandemProvider client={client} realtime={createRealtime({ client })}>.',
    )
  useEffect(
    () => (live && realtime ? bindLiveResources(realtime, client.cache, query) : undefined),
    [live, realtime, client, query],
  )
}
