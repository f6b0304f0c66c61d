import type { RateLimitState } from '../../../types.js'
import { AUTOCOMPLETE_DEFAULTS } from './defaults.js'
import type { AutocompleteQuota, Degraded } from './types.js'

/**
 * How much the quota lets autocomplete ask, from the maps rate limit's last state: `null` (as
 * typed), `slower` (a longer debounce) or `paused` (one request per pause in typing). Running out
 * (`budget`) is checked before waiting (`queue`): it is what a wait would end in.
 */
export function degradation(
  state: Partial<Pick<RateLimitState, 'queued' | 'waitMs' | 'remaining' | 'limit'>>,
  policy: AutocompleteQuota = AUTOCOMPLETE_DEFAULTS.quota,
): Degraded | null {
  const { queued = 0, waitMs = 0, remaining, limit } = state
  const low = (below: number) => remaining !== undefined && remaining < below
  if (low(policy.pausedBelow)) return { reason: 'budget', mode: 'paused' }
  if (queued > 0 && waitMs > policy.pausedWaitMs) return { reason: 'queue', mode: 'paused' }
  if (limit && low(limit * policy.slowerBelow)) return { reason: 'budget', mode: 'slower' }
  if (queued > 0) return { reason: 'queue', mode: 'slower' }
  return null
}
