import { createClient, type ClientOptions, type TandemClient } from '@tandem/core'
import { mintToken, type TokenProfile } from '@tandem/server'

/** The app's key, as `mintToken` of `@tandem/server` takes it. Server-side only. */
export interface MintOptions {
  appId: string
  keyId: string
  secret: string
  /**
   * Lifetime of the tokens minted, in seconds (60 to 86 400).
   * @default 600
   */
  ttlSeconds?: number
}

export interface ServerClientOptions extends Omit<ClientOptions, 'auth'> {
  /** The key tokens are signed with, in this process: no HTTP round trip to the token route. */
  mint: MintOptions
  /** The signed-in user the server renders for (the token's `sub`). */
  subject: string
  /** Their capabilities; a string is read as space-separated. */
  scope: string[] | string
  /** A support customer's name and email, as `mintToken` takes it. */
  profile?: TokenProfile
}

/**
 * A client for server components that acts for the signed-in user, with tokens minted in-process
 * by `mintToken` of `@tandem/server`. Make one per request (inside the component, or through
 * React's `cache()`): its cache holds that user's data and must not serve another request.
 *
 * @example
 * ```ts
 * import { cache } from 'react'
 * export const serverClient = cache(async () => {
 *   const user = await currentUser()
 *   return createServerClient({ baseUrl, mint: { appId, keyId, secret }, subject: user.id, scope: ['support'] })
 * })
 * ```
 */
export function createServerClient(options: ServerClientOptions): TandemClient {
  const { mint, subject, scope, profile, ...rest } = options
  const { appId, keyId, secret, ttlSeconds } = mint
  return createClient({
    ...rest,
    auth: { fetchToken: () => mintToken({ appId, keyId, secret, ttlSeconds, subject, scope, profile }) },
  })
}
