import type { PresenceMember } from '@tandem/realtime/resource-presence'
import type { ResourcePresenceResult } from '@tandem/react/resource-presence'
import type { SupportStrings } from './strings.js'

/** Who other agents see: the name they gave, else their id. */
export const agentName = (m: PresenceMember): string => m.data.name ?? m.clientId
const names = (ms: readonly PresenceMember[]) => [...new Set(ms.map(agentName))].join(', ')
/** hh:mm, the lock's end by the holder's clock. */
export const hhmm = (at: number): string =>
  new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false })

/**
 * The other agents on the open conversation: who views it, who types (said politely to a screen
 * reader), who holds the advisory lock.
 */
export function ConversationPresence({ here, strings }: { here: ResourcePresenceResult; strings: SupportStrings }) {
  const { viewers, typing, lock } = here
  return (
    <div className="presence-bar small" data-testid="presence">
      {viewers.length > 0 && (
        <span className="presence-viewers" data-testid="also-viewing">
          {strings.alsoViewing(names(viewers))}
        </span>
      )}
      {/* Always rendered, so a screen reader hears what comes into it. */}
      <span className="presence-typing muted" aria-live="polite" data-testid="agent-typing">
        {typing.length > 0 ? strings.typing(names(typing), typing.length > 1) : ''}
      </span>
      <span className="grow" />
      {lock && (
        <span className={`pill ${lock.mine ? 'info' : 'warn'}`} data-testid="lock-holder">
          {lock.mine
            ? strings.lockedByYou(hhmm(lock.expiresAt))
            : strings.lockedBy(agentName(lock.holder), hhmm(lock.expiresAt))}
        </span>
      )}
    </div>
  )
}

/** This agent's Lock / Unlock, beside Send: after the reply box in the Tab order. */
export function LockButton({ here, strings }: { here: ResourcePresenceResult; strings: SupportStrings }) {
  return here.lock?.mine ? (
    <button type="button" onClick={here.unlock} data-testid="unlock">
      {strings.unlock}
    </button>
  ) : (
    <button type="button" onClick={() => here.claimLock()} title={strings.lockTitle} data-testid="lock">
      {strings.lock}
    </button>
  )
}

/** A list row's badge: how many other agents have the conversation open. */
export function ViewerBadge({ viewers, strings }: { viewers: readonly PresenceMember[]; strings: SupportStrings }) {
  if (!viewers.length) return null
  const label = strings.viewersLabel(names(viewers))
  return (
    <span className="pill info viewer-badge" title={label} data-testid="viewer-badge">
      <span aria-hidden="true">{strings.viewers(viewers.length)}</span>
      <span className="sr-only">{label}</span>
    </span>
  )
}
