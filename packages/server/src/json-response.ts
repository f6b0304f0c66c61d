// JSON responses for the token endpoint. no-store everywhere: a token, or a refusal tied
// to one user's session, must never be served from a shared cache.

const HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } as const

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...HEADERS, ...headers } })
}

/** The error shape shared with the Tandem services: `{ error: { code, message, status } }`. */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): Response {
  return jsonResponse(status, { error: { code, message, status } }, headers)
}
