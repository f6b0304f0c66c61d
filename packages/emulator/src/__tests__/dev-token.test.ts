// `/dev/token` refuses every bad input with 400 `invalid_parameter` naming the field, from the
// query, a JSON body or a form alike: never the token handler's 500 `internal_error` (issue 43,
// row 14: a customer subject that breaks CUSTOMER_ID, `a:b` or 200 characters, gave a 500).
import { CUSTOMER_ID_RULE, CUSTOMER_SCOPE } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { call, expectError, useEmulator, type CallInit } from './helpers.js'

const emu = useEmulator({ plans: { maps: false, support: false, realtime: false } })

/** The same fields three ways: the query of a GET, a JSON body, a form body. */
const ways = (fields: Record<string, unknown>): [string, string, CallInit][] => {
  const text = Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, Array.isArray(v) ? v.join(' ') : String(v)]),
  )
  const query = new URLSearchParams(text).toString()
  return [
    ['query', `/dev/token?${query}`, {}],
    ['JSON', '/dev/token', { method: 'POST', json: fields }],
    [
      'form',
      '/dev/token',
      {
        method: 'POST',
        body: new URLSearchParams(text).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      },
    ],
  ]
}

const customer = [CUSTOMER_SCOPE]
const BAD: [name: string, fields: Record<string, unknown>, field: string, rule?: string][] = [
  ['a customer subject with a colon', { subject: 'a:b', scope: customer }, 'subject', CUSTOMER_ID_RULE],
  ['a customer subject of 200 characters', { subject: 'a'.repeat(200), scope: customer }, 'subject', CUSTOMER_ID_RULE],
  ['a customer subject with a space', { subject: 'Ada Lovelace', scope: customer }, 'subject', CUSTOMER_ID_RULE],
  ['a customer subject beyond ASCII', { subject: 'adé', scope: customer }, 'subject', CUSTOMER_ID_RULE],
  ['a customer scope beside others', { subject: 'a/b', scope: ['support', CUSTOMER_SCOPE] }, 'subject'],
  ['an empty subject', { subject: '' }, 'subject'],
  ['a subject of 257 characters', { subject: 'x'.repeat(257) }, 'subject'],
  ['a subject with a control character', { subject: 'a\u0007b' }, 'subject'],
  ['a scope of 65 entries', { scope: Array.from({ length: 65 }, (_, i) => `s${i}`) }, 'scope'],
  ['a scope entry of 201 characters', { scope: ['s'.repeat(201)] }, 'scope'],
]
/** Only a JSON body can say these. */
const BAD_JSON: [name: string, body: Record<string, unknown>, field: string][] = [
  ['a subject that is a number', { subject: 42 }, 'subject'],
  ['a subject that is an object', { subject: { id: 'cus_1' } }, 'subject'],
  ['a scope that is an object', { scope: { support: true } }, 'scope'],
  ['a scope entry that is a number', { scope: ['support', 7] }, 'scope'],
  ['a scope entry with a space inside', { scope: ['support read'] }, 'scope'],
  ['a scope entry with a comma inside', { scope: ['support,read'] }, 'scope'],
  ['an empty scope entry', { scope: [''] }, 'scope'],
]

describe('/dev/token: every bad input is a 400 naming its field', () => {
  const cases = BAD.flatMap(([name, fields, field, rule]) =>
    ways(fields).map(([way, path, init]) => ({ name: `${name} (${way})`, path, init, field, rule })),
  )
  it.each(cases)('$name', async ({ path, init, field, rule }) => {
    const res = await call(emu(), path, init)
    const { error } = await expectError(res, 400, 'invalid_parameter')
    expect(error.details?.[0]).toMatchObject({ field })
    if (rule) expect(error.message).toContain(CUSTOMER_ID_RULE)
  })

  it.each(BAD_JSON)('%s (JSON)', async (_, json, field) => {
    const { error } = await expectError(
      await call(emu(), '/dev/token', { method: 'POST', json }),
      400,
      'invalid_parameter',
    )
    expect(error.details?.[0]).toMatchObject({ field })
  })

  it('a good customer subject mints a token that is that customer', async () => {
    for (const [, path, init] of ways({ subject: 'cus_ada.lovelace@example-1', scope: customer })) {
      const res = await call(emu(), path, init)
      expect(res.status).toBe(200)
      const { token } = (await res.json()) as { token: string }
      const me = await call(emu(), '/support/v1/me', { token })
      expect(await me.json()).toMatchObject({ id: 'cus_ada.lovelace@example-1' })
    }
  })
})
