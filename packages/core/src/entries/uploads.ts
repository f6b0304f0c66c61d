// @tandem/core/uploads: the progress of writes with files (`uploads(client)`), and their types.
// The uploader itself is loaded by the client on the first write with files.
export { uploads } from '../uploads/uploads.js'
export type { FileUpload, MessageUpload, StoredFile, Uploads, UploadsSlot, UploadsSnapshot } from '../uploads/types.js'
// The one check of chosen files (count, size, type, name) the client runs before uploading: a UI
// runs it too, to refuse a file as it is chosen.
export { checkFiles } from '../uploads/check-files.js'
export { FileError, isFileError } from '../errors.js'
