// @tandem/core/support: `support(client)`, the support service of a modular client.
export { createSupportService, support } from '../services/support.js'
export type * from '../services/support.js'
