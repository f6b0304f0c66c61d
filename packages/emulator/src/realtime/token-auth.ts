// Socket tokens are verified exactly like REST ones (the app's keys via decodeToken), plus revocation.
import { decodeToken, TokenError, verifyToken } from '@tandem/server'
import type { EmulatorApp } from '../shared-types.js'

export interface Identity {
  app: string
  subject: string
  scope: string[]
  /** Expiry, unix seconds. */
  exp: number
  iat: number
  jti: string
}

export type TokenRefusal = 'token_expired' | 'token_invalid' | 'token_revoked'

export class TokenGate {
  /** By subject: tokens issued before `beforeIat` (unix s) or listed in `jtis` are refused. */
  private revoked = new Map<string, { beforeIat: number; jtis: Set<string> }>()

  constructor(private readonly apps: ReadonlyMap<string, EmulatorApp>) {}

  async verify(token: string, now = Date.now()): Promise<Identity | TokenRefusal> {
    const appId = decodeToken(token)?.claims.app
    const app = typeof appId === 'string' ? this.apps.get(appId) : undefined
    if (!app) return 'token_invalid'
    let identity: Identity
    try {
      const c = await verifyToken(token, { keys: app.keys, appId: app.appId, now })
      identity = { app: c.app, subject: c.sub, scope: c.scope, exp: c.exp, iat: c.iat, jti: c.jti }
    } catch (err) {
      if (err instanceof TokenError) return err.code === 'token_expired' ? 'token_expired' : 'token_invalid'
      return 'token_invalid'
    }
    // verifyToken allows a few seconds of skew; a socket would only be closed at once, so refuse now.
    if (identity.exp * 1000 <= now) return 'token_expired'
    const r = this.revoked.get(identity.subject)
    if (r && (identity.iat < r.beforeIat || r.jtis.has(identity.jti))) return 'token_revoked'
    return identity
  }

  /** Refuse the subject's current tokens: those issued before now, and those seen in use (same second). */
  revoke(subject: string, inUse: Iterable<string>, now = Date.now()): void {
    const entry = this.revoked.get(subject) ?? { beforeIat: 0, jtis: new Set<string>() }
    entry.beforeIat = Math.floor(now / 1000)
    for (const jti of inUse) entry.jtis.add(jti)
    this.revoked.set(subject, entry)
  }

  reset(): void {
    this.revoked.clear()
  }
}
