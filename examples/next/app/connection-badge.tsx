'use client'
import { useConnectionState } from '@tandem/react/realtime'

/** The realtime connection's state: 'idle' in the server's HTML, live once the browser connects. */
export function ConnectionBadge() {
  const { state } = useConnectionState()
  return (
    <span data-testid="connection" data-state={state} className="muted" role="status">
      {state === 'connected' ? '● live' : state}
    </span>
  )
}
