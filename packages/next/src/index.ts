'use client'
// @tandem/next: the client components of a Next.js App Router app. The hooks stay in
// @tandem/react; the server side (a server client, prefetch, the token route) is @tandem/next/server.
// See docs/next.md.
export { TandemNextProvider } from './provider.js'
export type { TandemNextProviderProps } from './provider.js'
export { TandemHydrate } from './hydrate.js'
export type { TandemHydrateProps } from './hydrate.js'
