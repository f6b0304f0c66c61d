// @tandem/core/uploads: the progress of writes with files (`uploads(client)`), and their types.
// The uploader itself is loaded by the client on the first write with files.
export { uploads } from '../uploads/uploads.js'
export type { FileUpload, MessageUpload, Uploads, UploadsSlot, UploadsSnapshot } from '../uploads/types.js'
export { FileError, isFileError } from '../errors.js'
