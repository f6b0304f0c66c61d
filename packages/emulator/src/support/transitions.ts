// Which status changes a PATCH may make. A reply is the only way back from closed (it
// reopens the conversation), so closed → active/pending by PATCH is refused.
import { HttpError } from '../http-errors.js'
import type { ConversationStatus } from './types.js'

const ALLOWED: Record<ConversationStatus, readonly ConversationStatus[]> = {
  active: ['pending', 'closed'],
  pending: ['active', 'closed'],
  closed: [],
}

/** Throws 422 `invalid_transition`; the same status is always allowed (a no-op). */
export function checkTransition(from: ConversationStatus, to: ConversationStatus): void {
  if (from === to || ALLOWED[from].includes(to)) return
  const hint = from === 'closed' ? ' Reply to the conversation to reopen it.' : ''
  throw new HttpError(422, 'invalid_transition', `Cannot change status from ${from} to ${to}.${hint}`, [
    { field: 'status', from, to },
  ])
}
