import { describe, expect, it } from 'vitest'
import { TokenError, verifyToken } from '../index.js'
import { APP, KID, NOW, SECRET } from './fixtures.js'
import { hostileTokens } from './hostile-tokens.js'

describe('verifyToken refuses whatever jose refuses', () => {
  it.each(hostileTokens({ appId: APP, keyId: KID, secret: SECRET }, NOW))('$name → $code', async ({ token, code }) => {
    const outcome: unknown = await verifyToken(token, { keys: { [KID]: SECRET }, appId: APP, now: NOW }).catch(
      (e: unknown) => e,
    )
    if (code === null) {
      expect(outcome).toMatchObject({ sub: 'user_1', app: APP, kid: KID })
    } else {
      expect(outcome).toBeInstanceOf(TokenError)
      expect((outcome as TokenError).code).toBe(code)
    }
  })
})
