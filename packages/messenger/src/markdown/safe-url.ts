// Which link targets an article may have: absolute http(s) and mailto only. Anything else
// (javascript:, data:, vbscript:, a relative path, which would resolve against the host page) is
// not a link: its text is shown, and nothing to click.
import { decodeEntities } from './entities.js'

const ALLOWED = new Set(['http:', 'https:', 'mailto:'])

/** The normalised URL (`URL#href`) when `raw` (as Markdown wrote it, entities and all) is allowed; else null. */
export function safeHref(raw: string): string | null {
  let url: URL
  try {
    // The URL parser drops the tabs, newlines and leading controls a browser would drop, so
    // "java&#9;script:" is read as the browser would read it, then refused by its scheme.
    url = new URL(decodeEntities(raw.trim()))
  } catch {
    return null
  }
  return ALLOWED.has(url.protocol) ? url.href : null
}
