import type { ReadableStore } from '@tandem/core'
import { createEmitter } from '../core.js'
import { partsOf } from '../parts.js'
import type { Realtime } from '../realtime.js'
import type { ConnectionSnapshot } from '../types.js'

export type { ConnectionSnapshot } from '../types.js'

/** The connection's state as a store (one per client, shared by every caller). */
export function connectionStore(rt: Realtime): ReadableStore<ConnectionSnapshot> {
  const parts = partsOf(rt, 'connectionStore')
  return (parts.connection ??= watchConnection(rt))
}

function watchConnection(rt: Realtime): ReadableStore<ConnectionSnapshot> {
  let snap: ConnectionSnapshot = { state: rt.state }
  const emitter = createEmitter<{ change: () => void }>()
  rt.on('state', ({ current, retryInMs, error }) => {
    snap = {
      state: current,
      ...(retryInMs !== undefined ? { retryInMs, retryAt: Date.now() + retryInMs } : {}),
      ...(error ? { error } : {}),
    }
    emitter.emit('change')
  })
  return { subscribe: (l) => emitter.on('change', l), getSnapshot: () => snap }
}
