// Error messages in the React manner (CONTRIBUTING.md, "Error messages"): production keeps each
// error's parts (code, field, status, request id, where) and ends with this link; development
// has the long sentence instead.

/** Where each error code is explained: `${ERROR_DOCS}${code}`. */
export const ERROR_DOCS = 'https://tandem.dev/e/'
