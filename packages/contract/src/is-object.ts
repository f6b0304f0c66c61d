// The two questions every parser of received data starts with, answered in one place.

/** An object of any kind (an array included), never `null`. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

/** A plain record: an object that is not an array. */
export const isRecord = (v: unknown): v is Record<string, unknown> => isObject(v) && !Array.isArray(v)
