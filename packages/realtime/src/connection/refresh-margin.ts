import { TOKEN_DEFAULTS } from '../core.js'

// The in-band refresh's margin is core's token provider's rule: refresh ahead by max(30 s, 10 %),
// never more than half (DEFAULTS.refreshMarginMs, refreshMarginRatio). A file of its own: read at
// module level from an import, the values stay wherever their file is bundled, so only bundles
// with the token refresh (or DEFAULTS) have them, not presence's or tabs'.

export const REFRESH_MARGIN_MS = TOKEN_DEFAULTS.refreshMarginMs
export const REFRESH_MARGIN_RATIO = TOKEN_DEFAULTS.refreshMarginRatio
