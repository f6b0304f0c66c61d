// The two documents, as objects: the emulator serves them, the generator writes them out.
export { asyncapi } from './asyncapi.js'
export { openapi } from './openapi.js'
export { FIRST_PUSH_SUBSCRIPTION, SEEDED, type ExampleCaller, type RequestExample } from './examples.js'
