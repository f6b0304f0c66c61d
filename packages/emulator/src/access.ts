// Who may do what, beyond `scopeAllows`: the customer role (docs/architecture.md, "Tokens and
// scopes"). REST (auth.ts) and the socket (realtime/requests.ts) both decide here.
import { CUSTOMER_CHANNEL_PREFIX, CUSTOMER_SCOPE, customerChannelName, isCustomerScope } from '@tandem/contract'
import { scopeAllows } from '@tandem/server'

export interface Caller {
  subject: string
  scope: readonly string[]
}

/**
 * Why a capability is refused: `scope` (the token lacks it: 403 `insufficient_scope`, socket
 * `forbidden`) or `service_only` (nobody but the service may: a customer channel's publish or presence).
 */
export type Refusal = 'scope' | 'service_only'

export interface AccessOptions {
  /** The route also answers customers, with their own view of it (the docs). */
  customers?: boolean
}

/** The message of a `service_only` refusal, for REST and the socket alike. */
export const SERVICE_ONLY_MESSAGE =
  'Only the support service publishes on a customer channel or is present on it; no token may, whatever its scope.'

/** A customer's token: `support:customer`, the exact string (never implied by `support` or `*`). */
export const isCustomer = (caller: Caller): boolean => isCustomerScope(caller.scope)

const SERVICE_ONLY = [`realtime:publish:${CUSTOMER_CHANNEL_PREFIX}`, `realtime:presence:${CUSTOMER_CHANNEL_PREFIX}`]

/** Undefined when `caller` may use `required`, else why not. */
export function refusal(caller: Caller, required: string, options: AccessOptions = {}): Refusal | undefined {
  if (SERVICE_ONLY.some((prefix) => required.startsWith(prefix))) return 'service_only'
  // A customer is confined whatever else its scope lists: its own routes, the docs and its channel.
  if (isCustomer(caller)) {
    const own = required === CUSTOMER_SCOPE || required === `realtime:subscribe:${customerChannelName(caller.subject)}`
    return own || options.customers === true ? undefined : 'scope'
  }
  // `support` or `*` would grant `support:customer` by prefix: the role is not a capability.
  if (required === CUSTOMER_SCOPE) return 'scope'
  return scopeAllows(caller.scope, required) ? undefined : 'scope'
}
