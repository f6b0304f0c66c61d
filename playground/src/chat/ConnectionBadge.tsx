import { useConnectionState } from '@tandem/react/realtime'
import { useEffect, useState } from 'react'

const LABEL: Record<string, string> = {
  idle: 'Idle',
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting',
  disconnected: 'Offline',
  closed: 'Closed',
  failed: 'Failed',
}

/**
 * The realtime connection's state, with the countdown to the next attempt while reconnecting.
 * `announce`: the one badge screen readers hear (a second copy on the page passes false).
 */
export function ConnectionBadge({ announce = true }: { announce?: boolean }) {
  const { state, retryInMs = 0, retryAt } = useConnectionState()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (state !== 'reconnecting' || retryAt === undefined) return
    // The countdown runs from the SDK's deadline (`retryAt`), never from when this rendered.
    const tick = () => setNow(Date.now())
    tick() // a fresh clock at once: the last tick may be from an earlier reconnect
    const t = setInterval(tick, 200)
    return () => clearInterval(t)
  }, [state, retryAt])
  // `now` may predate this state (it ticks only while reconnecting): never show more than was announced.
  const left = state === 'reconnecting' && retryAt !== undefined ? Math.max(0, Math.min(retryInMs, retryAt - now)) : 0
  return (
    <span
      className={`badge badge-${state}`}
      data-testid="connection-state"
      data-state={state}
      title="Realtime connection"
    >
      <span className="badge-dot" aria-hidden="true" />
      {/* Screen readers hear the state when it changes, not the countdown's every tick. */}
      <span role={announce ? 'status' : undefined}>
        <span className="sr-only">Realtime: </span>
        {LABEL[state] ?? state}
      </span>
      {left > 0 && (
        <span className="badge-extra" aria-hidden="true" data-testid="retry-in">
          {' '}
          · retry in {(left / 1000).toFixed(1)} s
        </span>
      )}
    </span>
  )
}
