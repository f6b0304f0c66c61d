import { describe, expect, it } from 'vitest'
import { emulatorActions } from '../emulator-actions.js'

// emulatorActions: what it asks of the dev controls the playground serves (playground/tandem-plugin.ts)
// and what it makes of their answers ({ dropped }, { revoked }, or an error body).

function devServer(answers: Record<string, { status: number; body: unknown }>) {
  const calls: string[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    calls.push(`${init?.method ?? 'GET'} ${url}`)
    const answer = answers[url.split('?')[0]!] ?? { status: 404, body: {} }
    return new Response(JSON.stringify(answer.body), { status: answer.status })
  }
  return { calls, fetch }
}

describe('emulatorActions', () => {
  it('POSTs to {base}/drop and {base}/expire for the user, and says what they did', async () => {
    const dev = devServer({
      '/dev/drop': { status: 200, body: { dropped: 2 } },
      '/dev/expire': { status: 200, body: { revoked: 1 } },
    })
    const actions = emulatorActions({ user: 'ada lovelace', base: '/dev', fetch: dev.fetch })
    expect(await actions.dropConnection!()).toBe('dropped 2 connections of ada lovelace')
    expect(await actions.expireToken!()).toBe('revoked the tokens of ada lovelace: 1 socket closed')
    expect(dev.calls).toEqual(['POST /dev/drop?user=ada%20lovelace', 'POST /dev/expire?user=ada%20lovelace'])
  })

  it("rejects with the control's message when it refuses", async () => {
    const dev = devServer({
      '/api/dev/drop': { status: 400, body: { error: { code: 'invalid_parameter', message: 'Pass ?user=<name>.' } } },
    })
    await expect(emulatorActions({ user: '', fetch: dev.fetch }).dropConnection!()).rejects.toThrow(
      'Pass ?user=<name>.',
    )
    expect(dev.calls).toEqual(['POST /api/dev/drop?user='])
  })
})
