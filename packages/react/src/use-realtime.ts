import { DEV } from '@tandem/contract/dev'
import { TandemError } from '@tandem/core'
import type { Realtime } from '@tandem/realtime'
import { useTandem } from './use-tandem.js'

/** The realtime connection of the nearest `<TandemProvider realtime={…}>`. */
export function useRealtime(): Realtime {
  const { realtime } = useTandem()
  if (!realtime)
    throw new TandemError(
      DEV && process.env.NODE_ENV !== 'production'
        ? 'No realtime connection here. Pass one: <TandemProvider client={client} realtime={createRealtime({ client })}>.'
        : 'useRealtime: no_realtime',
      { code: 'no_realtime' },
    )
  // The provider takes any live source by shape; the realtime hooks need the whole connection.
  return realtime as Realtime
}
