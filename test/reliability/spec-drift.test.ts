// Where the emulator and its own documents disagreed (issue 43, rows 14–16), attacked from outside
// as a hostile client would, over real HTTP on 127.0.0.1: a bad subject at `/dev/token`, a raw key
// in a URL and in the header, a scalar query parameter given twice, an empty value. Each answer is
// the one the contract documents (the emulator's own `prism.test.ts` runs every documented request
// through Prism in strict mode; this file is the attacker's side of the same rules).
import { CUSTOMER_ID_RULE, CUSTOMER_SCOPE } from '@tandem/contract'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'

const FILE = 'spec-drift'
const SEED = seedFrom(0x5dd1)
const at = replay(SEED, FILE)

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ seed: SEED })
})
afterAll(() => emu.close())

interface Answer {
  status: number
  code: string | undefined
  message: string
}

async function ask(path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${emu.url}${path}`, init)
  const text = await res.text()
  let body: { error?: { code?: string; message?: string } } = {}
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    // not JSON: the status says enough
  }
  return { status: res.status, code: body.error?.code, message: body.error?.message ?? '' }
}

describe('the emulator answers what its documents say', () => {
  it('row 14: /dev/token refuses a bad customer subject with 400, naming the field and the rule', async () => {
    printSeedOnFailure(SEED, FILE)
    for (const subject of ['a:b', 'a'.repeat(200), 'Ada Lovelace']) {
      const query = new URLSearchParams({ subject, scope: CUSTOMER_SCOPE })
      const answer = await ask(`/dev/token?${query}`)
      expect(answer, `${subject.slice(0, 20)}; ${at}`).toMatchObject({ status: 400, code: 'invalid_parameter' })
      expect(answer.message, at).toContain('subject')
      expect(answer.message, at).toContain(CUSTOMER_ID_RULE)
    }
  })

  it('row 15: a raw key works in the header from a server only; in a URL it is refused and never echoed', async () => {
    printSeedOnFailure(SEED, FILE)
    const { id, secret } = emu.apps[0]!.keys[0]!
    const raw = `${id}:${secret}`
    expect(await ask('/maps/v1/resources?limit=1', { headers: { authorization: `Bearer ${raw}` } }), at).toMatchObject({
      status: 200,
    })
    const fromPage = await ask('/maps/v1/resources?limit=1', {
      headers: { authorization: `Bearer ${raw}`, origin: 'http://192.168.1.20:5173' },
    })
    expect(fromPage, at).toMatchObject({ status: 403, code: 'key_not_allowed_in_browser' })
    for (const param of ['key', 'api_key', 'token']) {
      const inUrl = await ask(`/maps/v1/resources?limit=1&${param}=${encodeURIComponent(raw)}`)
      expect(inUrl, `${param}; ${at}`).toMatchObject({ status: 401, code: 'key_in_url' })
      expect(inUrl.message, at).not.toContain(secret)
    }
  })

  it('row 16: a scalar parameter given twice, or an empty value, is 400 invalid_parameter', async () => {
    printSeedOnFailure(SEED, FILE)
    const headers = { authorization: `Bearer ${await emu.mintToken({ scope: ['support:read'] })}` }
    const cases: [string, string][] = [
      ['status=active&status=closed', 'is given more than once'],
      ['limit=2&limit=3', 'is given more than once'],
      ['cursor=', 'must not be empty'],
      ['limit=', 'must not be empty'],
      ['tag=', 'must not be empty'],
    ]
    for (const [query, message] of cases) {
      const answer = await ask(`/support/v1/conversations?${query}`, { headers })
      expect(answer, `${query}; ${at}`).toMatchObject({ status: 400, code: 'invalid_parameter' })
      expect(answer.message, `${query}; ${at}`).toContain(message)
    }
    expect(await ask('/support/v1/conversations?status=active&limit=2', { headers }), at).toMatchObject({
      status: 200,
    })
  })
})
