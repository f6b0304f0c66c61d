// One verifier, one tolerance: every hostile token gets the same verdict from verifyToken,
// from REST (401 + code) and from the socket (close 4100 token_expired, 4101 token_invalid).
import { DEFAULTS, decodeToken, verifyToken, type TokenErrorCode } from '@tandem/server'
import { afterEach, describe, expect, it } from 'vitest'
import { hostileTokens } from '../../../server/src/__tests__/hostile-tokens.js'
import { DEV_APP } from '../defaults.js'
import { call, expectError, useEmulator } from './helpers.js'
import { TestSocket } from './realtime-helpers.js'

const emu = useEmulator({ apps: [DEV_APP] })
const [key] = DEV_APP.keys
if (!key) throw new Error('DEV_APP has no key')
const KEY = { appId: DEV_APP.appId, keyId: key.id, secret: key.secret }

const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})

const closeFor = (code: TokenErrorCode) =>
  code === 'token_expired' ? { code: 4100, name: 'token_expired' } : { code: 4101, name: 'token_invalid' }

describe('hostile tokens: verifyToken, REST and the socket agree', () => {
  // Minted per test, against the clock the emulator reads.
  const names = hostileTokens(KEY, Date.now()).map((c) => c.name)

  it.each(names)('%s', async (name) => {
    const hostile = hostileTokens(KEY, Date.now()).find((c) => c.name === name)
    if (!hostile) throw new Error(name)
    const { token, code } = hostile

    const verified: unknown = await verifyToken(token, { keys: DEV_APP.keys, appId: DEV_APP.appId }).catch(
      (e: { code?: unknown }) => e.code,
    )
    const rest = await call(emu(), '/maps/v1/resources', { token })
    const socket = await TestSocket.open(emu())
    sockets.push(socket)
    socket.send({ type: 'connect', id: 1, token })

    if (code === null) {
      expect(verified).toMatchObject({ app: DEV_APP.appId, sub: 'user_1' })
      expect(rest.status).toBe(200)
      expect(await socket.take((f) => f.id === 1)).toMatchObject({ type: 'connected' })
      return
    }
    expect(verified).toBe(code)
    await expectError(rest, 401, code)
    const closed = await socket.closedWithin()
    const expected = closeFor(code)
    expect(closed.code).toBe(expected.code)
    expect((JSON.parse(closed.reason) as { code: string }).code).toBe(expected.name)
    expect(socket.inbox).toEqual([])
  })
})

describe('one clock tolerance on the socket', () => {
  it('a token accepted within the tolerance closes 4100 when REST starts refusing it, not before', async () => {
    const hostile = hostileTokens(KEY, Date.now()).find((c) => c.name === 'expired within the tolerance')
    if (!hostile) throw new Error('missing case')
    const exp = decodeToken(hostile.token)?.claims.exp as number
    const { socket } = await TestSocket.connect(emu(), hostile.token)
    sockets.push(socket)
    const closed = await socket.closedWithin((DEFAULTS.clockToleranceSeconds + 3) * 1000)
    expect(Date.now()).toBeGreaterThanOrEqual((exp + DEFAULTS.clockToleranceSeconds) * 1000)
    expect(closed.code).toBe(4100)
    await expectError(await call(emu(), '/maps/v1/resources', { token: hostile.token }), 401, 'token_expired')
  })
})

describe('dev tokens', () => {
  it('/dev/token mints through @tandem/server: aud is the app id, and REST and the socket accept it', async () => {
    const res = await fetch(`${emu().url}/dev/token`, { method: 'POST' })
    const { token } = (await res.json()) as { token: string }
    expect(decodeToken(token)?.claims).toMatchObject({ aud: DEV_APP.appId, app: DEV_APP.appId })
    await expect(verifyToken(token, { keys: DEV_APP.keys, appId: DEV_APP.appId })).resolves.toBeTruthy()
    expect((await call(emu(), '/maps/v1/resources', { token })).status).toBe(200)
    const { socket, connected } = await TestSocket.connect(emu(), token)
    sockets.push(socket)
    expect(connected.type).toBe('connected')
  })
})
