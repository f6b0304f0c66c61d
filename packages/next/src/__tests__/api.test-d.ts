import { listQuery, type DehydratedState, type TandemClient } from '@tandem/core'
import type { ComponentProps } from 'react'
import { describe, expectTypeOf, it } from 'vitest'
import { TandemHydrate, TandemNextProvider } from '../index.js'
import { createServerClient, prefetch, tokenRoute, type TokenRoute } from '../server.js'

// Nothing here runs: the public API's types, checked by `npm run typecheck`.
describe('@tandem/next', () => {
  it('the client components', () => {
    expectTypeOf<ComponentProps<typeof TandemHydrate>['state']>().toEqualTypeOf<DehydratedState | null | undefined>()
    expectTypeOf<ComponentProps<typeof TandemNextProvider>>().toHaveProperty('clientOptions')
    // @ts-expect-error: clientOptions is required
    expectTypeOf<ComponentProps<typeof TandemNextProvider>>().toEqualTypeOf<{ realtimeOptions: object }>()
  })

  it('the server entry', async () => {
    const client = createServerClient({
      mint: { appId: 'a', keyId: 'k', secret: 's' },
      subject: 'u',
      scope: ['support'],
    })
    expectTypeOf(client).toEqualTypeOf<TandemClient>()
    expectTypeOf(
      await prefetch(client, listQuery('support/conversations', { limit: 5 })),
    ).toEqualTypeOf<DehydratedState>()
    // @ts-expect-error: a call's function cannot travel to the browser
    void prefetch(client, { key: ['x'], fn: async () => 1 })
    // @ts-expect-error: the key is required
    createServerClient({ subject: 'u', scope: [] })
    const route = tokenRoute({ appId: 'a', keyId: 'k', secret: 's', authorize: () => null })
    expectTypeOf(route).toEqualTypeOf<TokenRoute>()
    expectTypeOf(route.POST).toEqualTypeOf<(request: Request) => Promise<Response>>()
  })
})
