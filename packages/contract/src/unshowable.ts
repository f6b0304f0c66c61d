// Characters a name shown to someone else may not hold (a character class body, for RegExp): the
// controls, and the bidirectional embeddings, overrides and isolates that reorder the text around
// them (U+202E). Internal: presence names and upload filenames build their rules from it.
export const UNSHOWABLE = '\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069'
