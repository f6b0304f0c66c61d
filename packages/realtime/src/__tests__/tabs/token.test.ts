import { describe, expect, it } from 'vitest'
import { createTokenAsks } from '../../tabs/token.js'
import type { TabMessage } from '../../tabs/wire.js'

// A follower tab's token comes from the leader: the leader's failure keeps its code, and is final
// for the follower only when it is for the leader (a refusal), so a page or a 404 is waited out.
describe("a follower tab's token asks", () => {
  const failWith = async (error: string) => {
    const sent: TabMessage[] = []
    const asks = createTokenAsks(
      (m) => void sent.push(m),
      () => 'q1',
    )
    const asked = asks.ask(undefined).catch((e: unknown) => e)
    asks.answer({ type: 'tokened', ask: 'q1', error, message: `leader: ${error}` })
    return asked
  }

  it.each([
    ['invalid_token_response', true],
    ['token_endpoint_error', true],
    ['token_endpoint_unavailable', true],
    ['token_refused', false],
  ])("the leader's %s is temporary: %s", async (code, temporary) => {
    expect(await failWith(code)).toMatchObject({ name: 'RealtimeError', code, temporary })
  })
})
