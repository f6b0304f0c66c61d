// `@tandem/contract/frame-fields`: what a client checks every frame against, without a JSON Schema
// validator: the generated table of required fields (from the AsyncAPI document) and `hasFields`.
// Its own entry, so a bundle places it beside the socket code that reads it.
export { hasFields } from './has-fields.js'
export * from './generated/frame-fields.js'
