// @tandem/react: thin bindings over @tandem/core's resource cache. The realtime hooks are in
// '@tandem/react/realtime', so an app without realtime installs and bundles none of it. See docs/react.md.
export { TandemProvider } from './provider.js'
export type { TandemProviderProps } from './provider.js'
export { useTandem } from './use-tandem.js'
export type { TandemContextValue } from './use-tandem.js'
export { useResources } from './use-resources.js'
export type { CollectionPath, ResourcesResult, UseResourcesOptions } from './use-resources.js'
export { useResource } from './use-resource.js'
export type { ResourceResult, UseResourceOptions } from './use-resource.js'
export type { EntryOptions, EntryResult } from './use-entry.js'
export { useMutation } from './use-mutation.js'
export type { MutationResult, UseMutationOptions } from './use-mutation.js'
