// @tandem/react/uploads: the progress of writes with files (`uploads(client)` of
// @tandem/core/uploads) as a React binding, an entry of its own so an app without files ships none of it.
export { useUploads } from './use-uploads.js'
export type { UseUploadsResult } from './use-uploads.js'
