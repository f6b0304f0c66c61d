// @tandem/next/server: for server components and route handlers only (no 'use client'). Tokens
// are minted in this process with @tandem/server: the key secret never reaches a client component.
export { createServerClient } from './server-client.js'
export type { MintOptions, ServerClientOptions } from './server-client.js'
export { prefetch } from './prefetch.js'
export type { PrefetchQuery } from './prefetch.js'
export { tokenRoute } from './token-route.js'
export type { TokenRoute, TokenRouteHandler } from './token-route.js'
