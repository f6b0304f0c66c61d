// @tandem/contract: the services' interface, once. The documents are spec/openapi.json and
// spec/asyncapi.json (built from src/spec); the types below are generated from them.
export * from './wire.js'
export * from './customer.js'
export * from './resource-presence.js'
export * from './autocomplete.js'
export * from './answers.js'
export * from './write-paths.js'
export { ERROR_DOCS } from './messages.js'
export { LIST_RULES } from './list-rules.js'
export type { FilterRule, ListRule } from './list-rules.js'
export type * from './types.js'
export type * from './collections.js'
export type { components, operations, paths } from './generated/openapi.js'
