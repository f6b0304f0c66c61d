import { useConnectionState } from '@tandem/react'
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

/** The realtime connection's state, with the countdown to the next attempt while reconnecting. */
export function ConnectionBadge() {
  const { state, retryInMs } = useConnectionState()
  const [now, setNow] = useState(() => Date.now())
  const [since, setSince] = useState(() => Date.now())
  useEffect(() => setSince(Date.now()), [state, retryInMs])
  useEffect(() => {
    if (state !== 'reconnecting' || !retryInMs) return
    const t = setInterval(() => setNow(Date.now()), 200)
    return () => clearInterval(t)
  }, [state, retryInMs])
  const left = state === 'reconnecting' && retryInMs ? Math.max(0, retryInMs - (now - since)) : 0
  return (
    <span
      className={`badge badge-${state}`}
      data-testid="connection-state"
      data-state={state}
      title="Realtime connection"
    >
      <span className="badge-dot" aria-hidden="true" />
      {LABEL[state] ?? state}
      {left > 0 && <span className="badge-extra"> · retry in {(left / 1000).toFixed(1)} s</span>}
    </span>
  )
}
