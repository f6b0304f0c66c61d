// The maps routes' own check; the shared ones are in ../validate.ts.
import { requireText } from '../validate.js'
import { DEFAULTS } from './defaults.js'

/** A non-empty string, trimmed (maps inputs are free text: names, address lines). */
export const trimmedText = (value: unknown, field: string, max: number = DEFAULTS.maxTextLength): string =>
  requireText(value, field, max).trim()
