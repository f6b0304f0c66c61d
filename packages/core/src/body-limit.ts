// A cap on how much of an answer is read, enforced while reading (memory stays flat): past it the
// stream is cancelled and the read fails with `ResponseTooLarge`, which the pipeline turns into an
// `ApiError` `response_too_large`. One reader for the REST pipeline and the token endpoint.

/** Thrown (into the body read) when an answer is larger than allowed. */
export class ResponseTooLarge extends Error {
  readonly status: number
  readonly requestId: string | undefined
  constructor(
    readonly maxBytes: number,
    response: Response,
  ) {
    super(`the answer is larger than ${maxBytes} bytes`)
    this.status = response.status
    this.requestId = response.headers.get('x-request-id') ?? undefined
  }
}

/**
 * The body as text (UTF-8, as `Response.text()`), at most `maxBytes` of it, counted while reading
 * (memory stays flat): a declared length past it is refused before reading (the body may never
 * come), and past it while reading the rest is cancelled. `tooLarge` is what the caller throws then.
 */
export async function readCapped(response: Response, maxBytes: number, tooLarge: () => Error): Promise<string> {
  const reader = response.body?.getReader()
  const refuse = () => {
    void reader?.cancel().catch(() => {})
    return tooLarge()
  }
  if (Number(response.headers.get('content-length')) > maxBytes) throw refuse()
  const decoder = new TextDecoder()
  let text = ''
  for (let size = 0; reader;) {
    const r = await reader.read()
    if (r.done) break
    if ((size += r.value.byteLength) > maxBytes) throw refuse()
    text += decoder.decode(r.value, { stream: true })
  }
  return text + decoder.decode()
}

/**
 * `response`, whose `text()` reads through the cap (`ResponseTooLarge` past it): what ofetch
 * calls to parse an answer. The response itself, not one rebuilt around a copy of its body: a
 * Blob and a second stream per request cost a fast request a tenth of its CPU.
 */
export function limitBody(response: Response, maxBytes: number): Response {
  response.text = () => readCapped(response, maxBytes, () => new ResponseTooLarge(maxBytes, response))
  return response
}
