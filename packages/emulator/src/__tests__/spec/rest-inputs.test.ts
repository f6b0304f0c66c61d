// src/spec/rest-inputs.ts over real HTTP: every constraint of every operation's inputs, broken
// once (generated from the OpenAPI document), is refused with the error the contract names, and
// each operation's valid example is accepted.
import { describe, expect, it } from 'vitest'
import { CUSTOMER_SCOPE } from '@tandem/contract'
import { authed, call, useEmulator, type ErrorJson } from '../helpers.js'
import type { Seeded } from './examples.js'
import { restCases, type RestRequest } from './rest-cases.js'
import { slack } from '../../../../../test/utils/wait.js'

// No rate limits: a few hundred requests in a row are the point here.
const emu = useEmulator({ plans: { maps: false, support: false, realtime: false } })

/** The customer who owns `myConversationId`: their token sends the `/support/v1/me` requests. */
let customerToken = ''

async function send(r: RestRequest): Promise<Response> {
  const query = new URLSearchParams(r.query).toString()
  const asCustomer = r.path.startsWith('/support/v1/me')
  return (asCustomer ? call : authed)(emu(), `${r.path}${query ? `?${query}` : ''}`, {
    method: r.method,
    headers: r.headers,
    ...(asCustomer ? { token: customerToken } : {}),
    ...(r.body !== undefined ? { json: r.body } : {}),
  })
}

async function seeded(): Promise<Seeded> {
  const first = async (path: string) =>
    ((await (await authed(emu(), path)).json()) as { data: { id: string }[] }).data[0]!.id
  const mine = (await (await authed(emu(), '/support/v1/conversations?status=pending&limit=1')).json()) as {
    data: { id: string; customer: { id: string } }[]
  }
  customerToken = await emu().mintToken({ subject: mine.data[0]!.customer.id, scope: [CUSTOMER_SCOPE] })
  return {
    myConversationId: mine.data[0]!.id,
    mailboxId: await first('/support/v1/mailboxes?limit=1'),
    agentId: await first('/support/v1/agents?limit=1'),
    conversationId: await first('/support/v1/conversations?status=active&limit=1'),
    articleId: await first('/support/v1/docs/articles?limit=1'),
    collectionId: await first('/support/v1/docs/collections?limit=1'),
  }
}

describe('REST inputs against the OpenAPI document', () => {
  it(
    'refuses each broken constraint with the error the contract names, and accepts the valid input',
    async () => {
      const { valid, cases, operations } = restCases(await seeded())
      // A floor, so a generator that finds nothing fails instead of passing with zero cases.
      expect(operations).toBeGreaterThanOrEqual(27)
      expect(cases.length).toBeGreaterThan(150)
      expect(cases.filter((c) => c.alone).length).toBeGreaterThan(120)
      const wrong: string[] = []
      for (const c of cases) {
        const res = await send(c.request)
        const body = (await res.json().catch(() => ({}))) as Partial<ErrorJson>
        const field = body.error?.details?.[0]?.field
        if (res.status !== c.expect.status || body.error?.code !== c.expect.code)
          wrong.push(`${c.name}: ${res.status} ${body.error?.code ?? ''} (wanted ${c.expect.status} ${c.expect.code})`)
        else if (c.expect.field !== undefined && field !== c.expect.field)
          wrong.push(`${c.name}: names ${String(field)}, not ${c.expect.field}`)
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
