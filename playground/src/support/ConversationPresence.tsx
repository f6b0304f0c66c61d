import { CUSTOMER_PRESENCE_PREFIX } from '@tandem/contract'
import type { PresenceMember } from '@tandem/realtime/resource-presence'
import type { ResourcePresenceResult } from '@tandem/react/resource-presence'
import { useState } from 'react'
import type { SupportStrings } from './strings.js'

/** Who other agents see: the name they gave, else their id. */
export const agentName = (m: PresenceMember): string => m.data.name ?? m.clientId
const names = (ms: readonly PresenceMember[]) => [...new Set(ms.map(agentName))].join(', ')
/** The member the service enters for a customer who types (`setMyTyping`): never an agent's connection. */
const isCustomer = (m: PresenceMember) => m.clientId.startsWith(CUSTOMER_PRESENCE_PREFIX)
/** hh:mm, the lock's end by the holder's clock. */
export const hhmm = (at: number): string =>
  new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false })

/** The lock pill's words: who holds it until when, and this agent's place when its claim waits. */
function lockText(here: ResourcePresenceResult, strings: SupportStrings): string {
  const { lock, waiting } = here
  if (!lock) return ''
  const until = hhmm(lock.expiresAt)
  if (lock.mine) return strings.lockedByYou(until)
  const name = agentName(lock.holder)
  return waiting ? strings.lockWaiting(name, until, waiting.position) : strings.lockedBy(name, until)
}

/**
 * What a screen reader is told of this agent's claim: that it waits (who holds the lock, until when),
 * and that it holds the lock once the other lets go. Set when the claim starts or stops waiting,
 * not on every renewal: a live region that repeats itself is noise.
 */
function useLockNews(here: ResourcePresenceResult, strings: SupportStrings): string {
  const waiting = here.waiting !== null
  const [was, setWas] = useState(waiting)
  const [news, setNews] = useState('')
  if (waiting !== was) {
    // Adjusting state while rendering (React's pattern for "what changed since the last render").
    setWas(waiting)
    setNews(waiting ? lockText(here, strings) : here.lock?.mine ? strings.lockGained : '')
  }
  return news
}

interface Props {
  here: ResourcePresenceResult
  strings: SupportStrings
  /** The conversation's customer as the inbox names them, when their member carries no name. */
  customer: string
}

/**
 * The other agents on the open conversation: who views it, who types (said politely to a screen
 * reader), who holds the advisory lock, and this agent's place when its claim waits for it; and
 * whether the customer types (the service's member for them on the same channel).
 */
export function ConversationPresence({ here, strings, customer }: Props) {
  const { viewers, lock } = here
  const typing = here.typing.filter((m) => !isCustomer(m))
  const customerTyping = here.typing.find(isCustomer)
  const news = useLockNews(here, strings)
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
      <span className="presence-typing muted" aria-live="polite" data-testid="customer-typing">
        {customerTyping ? strings.customerTyping(customerTyping.data.name ?? customer) : ''}
      </span>
      <span className="grow" />
      {lock && (
        <span className={`pill ${lock.mine ? 'info' : 'warn'}`} data-testid="lock-holder">
          {lockText(here, strings)}
        </span>
      )}
      {/* Always rendered, as the typing line: the pill shows the same to the eye. */}
      <span className="sr-only" aria-live="polite" data-testid="lock-news">
        {news}
      </span>
    </div>
  )
}

/** This agent's Lock / Unlock, beside Send: after the reply box in the Tab order. */
export function LockButton({ here, strings }: { here: ResourcePresenceResult; strings: SupportStrings }) {
  if (here.waiting && !here.lock?.mine)
    return (
      <button type="button" onClick={here.unlock} title={strings.stopWaitingTitle} data-testid="stop-waiting">
        {strings.stopWaiting}
      </button>
    )
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
