// Socket tokens go through the same check as REST ones (`checkToken`: @tandem/server's
// verifyToken, one clock tolerance), plus revocation.
import { DEFAULTS, type TokenProfile } from '@tandem/server'
import { checkToken } from '../auth.js'
import type { EmulatorApp } from '../shared-types.js'

export interface Identity {
  app: string
  subject: string
  scope: string[]
  /** Expiry, unix seconds (the token's `exp`). */
  exp: number
  /**
   * When verifyToken starts refusing the token, in ms: `exp` plus the clock tolerance. The
   * socket closes 4100 then, the moment REST would answer 401 token_expired.
   */
  refusedFromMs: number
  iat: number
  jti: string
  /** Who the user is, from the token's `profile` claim: what the service may show of it (a verified name). */
  profile?: TokenProfile
}

export type TokenRefusal = 'token_expired' | 'token_invalid' | 'token_revoked'

export class TokenGate {
  /** By subject: tokens issued before `beforeIat` (unix s) or listed in `jtis` are refused. */
  private revoked = new Map<string, { beforeIat: number; jtis: Set<string> }>()

  constructor(private readonly apps: ReadonlyMap<string, EmulatorApp>) {}

  async verify(token: string, now = Date.now()): Promise<Identity | TokenRefusal> {
    const checked = await checkToken(token, this.apps, now)
    // Close codes: 4100 for token_expired, 4101 for every other refusal (docs/protocol.md).
    if (!checked.ok) return checked.code === 'token_expired' ? 'token_expired' : 'token_invalid'
    const { app, claims: c } = checked
    const identity: Identity = {
      app: app.appId,
      subject: c.sub,
      scope: c.scope,
      exp: c.exp,
      refusedFromMs: (c.exp + DEFAULTS.clockToleranceSeconds) * 1000,
      iat: c.iat,
      jti: c.jti,
      ...(c.profile ? { profile: c.profile } : {}),
    }
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
