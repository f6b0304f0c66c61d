import { describe, expectTypeOf, it } from 'vitest'
import {
  createTokenHandler,
  createWebhookHandler,
  mintToken,
  verifyToken,
  type TokenClaims,
  type WebhookEvent,
} from '../index.js'

describe('@tandem/server types', () => {
  it('mints, verifies and handles', () => {
    expectTypeOf(mintToken).returns.resolves.toEqualTypeOf<{ token: string; expiresIn: number }>()
    expectTypeOf(verifyToken).returns.resolves.toEqualTypeOf<TokenClaims>()
    expectTypeOf<TokenClaims['sub']>().toEqualTypeOf<string>()
    expectTypeOf<TokenClaims['scope']>().toEqualTypeOf<string[]>()
    expectTypeOf(createTokenHandler).returns.toEqualTypeOf<(request: Request) => Promise<Response>>()
  })

  it('webhook handlers get their event: any event by default, typed by an event map', () => {
    createWebhookHandler({
      secret: 's',
      on: {
        'conversation.created': (event) => {
          expectTypeOf(event).toEqualTypeOf<WebhookEvent>()
        },
      },
    })
    createWebhookHandler<{ 'conversation.created': { id: string } }>({
      secret: 's',
      on: {
        'conversation.created': (event) => {
          expectTypeOf(event.type).toEqualTypeOf<'conversation.created'>()
          expectTypeOf(event.data).toEqualTypeOf<{ id: string }>()
        },
      },
    })
  })
})
