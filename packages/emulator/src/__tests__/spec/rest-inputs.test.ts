// src/spec/rest-inputs.ts and src/auth.ts over real HTTP: every constraint of every operation's
// inputs, broken once (generated from the OpenAPI document and its documented requests), is
// refused with the error the contract names, and each documented request is accepted.
import { SEEDED } from '@tandem/contract/spec'
import { describe, expect, it } from 'vitest'
import { authed, call, useEmulator, type ErrorJson } from '../helpers.js'
import { credentials, target, type RestRequest } from './documented.js'
import { restCases } from './rest-cases.js'
import { slack } from '../../../../../test/utils/wait.js'

// No rate limits: a few hundred requests in a row are the point here.
const emu = useEmulator({ plans: { maps: false, support: false, realtime: false } })
const credential = credentials(emu)

async function send(r: RestRequest): Promise<Response> {
  const token = await credential(r.caller)
  return call(emu(), target(r), {
    method: r.method,
    headers: r.headers,
    ...(token !== undefined ? { token } : {}),
    ...(r.body !== undefined ? { json: r.body } : {}),
  })
}

describe('REST inputs against the OpenAPI document', () => {
  it('the documented requests name the seeded data (SEEDED is what seed 1 makes)', async () => {
    const first = async (path: string) =>
      ((await (await authed(emu(), path)).json()) as { data: { id: string; customer?: { id: string } }[] }).data[0]!
    const pending = await first('/support/v1/conversations?status=pending&limit=1')
    const resources = (await (await authed(emu(), '/support/v1/resources?limit=2')).json()) as { nextCursor: string }
    expect({
      mailboxId: (await first('/support/v1/mailboxes?limit=1')).id,
      agentId: (await first('/support/v1/agents?limit=1')).id,
      conversationId: (await first('/support/v1/conversations?status=active&limit=1')).id,
      articleId: (await first('/support/v1/docs/articles?limit=1')).id,
      collectionId: (await first('/support/v1/docs/collections?limit=1')).id,
      myConversationId: pending.id,
      customerId: pending.customer!.id,
      resourceCursor: resources.nextCursor,
    }).toEqual(SEEDED)
  })

  it(
    'refuses each broken constraint with the error the contract names, and accepts the valid input',
    async () => {
      const { valid, cases, operations } = restCases()
      // A floor, so a generator that finds nothing fails instead of passing with zero cases.
      expect(operations).toBeGreaterThanOrEqual(27)
      expect(cases.length).toBeGreaterThan(150)
      expect(cases.filter((c) => c.alone).length).toBeGreaterThan(120)
      const kinds = (pattern: RegExp) => cases.filter((c) => pattern.test(c.name)).length
      // What the document states of every query parameter and of credentials, every operation.
      expect(kinds(/ given twice$/)).toBeGreaterThanOrEqual(20)
      expect(kinds(/ empty$/)).toBeGreaterThanOrEqual(30)
      expect(kinds(/ \?key= from a server$/)).toBe(operations)
      expect(kinds(/ raw key header from a page/)).toBe(2 * operations)
      const wrong: string[] = []
      for (const c of cases) {
        const res = await send(c.request)
        const body = (await res.json().catch(() => ({}))) as Partial<ErrorJson>
        const detail = body.error?.details?.[0]
        if (res.status !== c.expect.status || body.error?.code !== c.expect.code)
          wrong.push(`${c.name}: ${res.status} ${body.error?.code ?? ''} (wanted ${c.expect.status} ${c.expect.code})`)
        else if (c.expect.field !== undefined && detail?.field !== c.expect.field)
          wrong.push(`${c.name}: names ${String(detail?.field)}, not ${c.expect.field}`)
        else if (c.expect.message !== undefined && detail?.message !== c.expect.message)
          wrong.push(`${c.name}: says ${String(detail?.message)}, not ${c.expect.message}`)
      }
      console.info(
        `REST conformance: ${operations} operations, ${cases.length} cases (${cases.filter((c) => c.alone).length} breaking one constraint alone), ${valid.length} valid inputs`,
      )
      expect(wrong).toEqual([])
      for (const r of valid) {
        const res = await send(r)
        expect(res.status, `${r.method} ${r.path}: ${await res.clone().text()}`).toBeLessThan(300)
      }
    },
    slack(15_000),
  ) // a few hundred requests, one after another: slower on a busy machine
})
