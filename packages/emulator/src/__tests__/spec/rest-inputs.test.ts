// src/spec/rest-inputs.ts over real HTTP: every constraint of every operation's inputs, broken
// once (generated from the OpenAPI document), is refused with the error the contract names, and
// each operation's valid example is accepted.
import { describe, expect, it } from 'vitest'
import { authed, useEmulator, type ErrorJson } from '../helpers.js'
import type { Seeded } from './examples.js'
import { restCases, type RestRequest } from './rest-cases.js'
import { slack } from '../../../../../test/utils/wait.js'

// No rate limits: a few hundred requests in a row are the point here.
const emu = useEmulator({ plans: { maps: false, support: false, realtime: false } })

async function send(r: RestRequest): Promise<Response> {
  const query = new URLSearchParams(r.query).toString()
  return authed(emu(), `${r.path}${query ? `?${query}` : ''}`, {
    method: r.method,
    headers: r.headers,
    ...(r.body !== undefined ? { json: r.body } : {}),
  })
}

async function seeded(): Promise<Seeded> {
  const first = async (path: string) =>
    ((await (await authed(emu(), path)).json()) as { data: { id: string }[] }).data[0]!.id
  return {
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
