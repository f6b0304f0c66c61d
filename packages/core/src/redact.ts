const BEARER = /\b(Bearer)\s+[^\s,;"']+/gi
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g
const SECRET_PARAM = /([?&](?:key|token|access_token|secret)=)[^&\s"']+/gi

/** Scrubs anything token- or key-shaped out of text that may reach a log or an error message. */
export function redact(text: string): string {
  return text.replace(BEARER, '$1 [redacted]').replace(JWT, '[redacted]').replace(SECRET_PARAM, '$1[redacted]')
}
