// A cap on how much of an answer is read, enforced while reading (memory stays flat): past it the
// stream is cancelled and the read fails with `ResponseTooLarge`, which the pipeline turns into an
// `ApiError` `response_too_large`. One reader for the REST pipeline and the token endpoint, so an
// app with only realtime ships the reader and not the Response rebuilt around it.

/** Thrown (into the body read, or by the fetch itself) when an answer is larger than allowed. */
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

/** Statuses whose Response cannot be rebuilt with a body (and that have none). */
const NULL_BODY = new Set([101, 204, 205, 304])

/**
 * The body, at most `maxBytes` of it, counted while reading (memory stays flat): a declared length
 * past it is refused before reading (the body may never come), and past it while reading the
 * rest is cancelled. `tooLarge` is what the caller throws then.
 */
export async function readCapped(response: Response, maxBytes: number, tooLarge: () => Error): Promise<Blob> {
  const reader = response.body?.getReader()
  const refuse = () => {
    void reader?.cancel().catch(() => {})
    return tooLarge()
  }
  if (Number(response.headers.get('content-length')) > maxBytes) throw refuse()
  const chunks: BlobPart[] = []
  for (let size = 0; reader;) {
    const r = await reader.read()
    if (r.done) break
    if ((size += r.value.byteLength) > maxBytes) throw refuse()
    chunks.push(r.value)
  }
  return new Blob(chunks)
}

/** `response` with its body read through the cap (`ResponseTooLarge` past it). */
export async function limitBody(response: Response, maxBytes: number): Promise<Response> {
  const { status, statusText, headers } = response
  const body = await readCapped(response, maxBytes, () => new ResponseTooLarge(maxBytes, response))
  // These statuses cannot carry a body, and a Response with one cannot be rebuilt for them.
  return status < 200 || NULL_BODY.has(status) ? response : new Response(body, { status, statusText, headers })
}
