// A cap on how much of an answer is read, enforced while reading (memory stays flat): past it the
// stream is cancelled and the read fails with `ResponseTooLarge`, which the pipeline turns into an
// `ApiError` `response_too_large`.

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

/** `response`, or one that reads at most `maxBytes` of its body. */
export function limitBody(response: Response, maxBytes: number): Response {
  const { status, headers, body } = response
  const declared = Number(headers.get('content-length') ?? NaN)
  if (declared > maxBytes) {
    void body?.cancel().catch(() => {})
    throw new ResponseTooLarge(maxBytes, response)
  }
  // A declared length within the cap binds the body already (fetch refuses more), unless it is
  // the compressed length: then only counting the decoded bytes is safe.
  if (!body || status < 200 || NULL_BODY.has(status)) return response
  if (declared >= 0 && (headers.get('content-encoding') ?? 'identity') === 'identity') return response
  let read = 0
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength
        if (read > maxBytes) controller.error(new ResponseTooLarge(maxBytes, response))
        else controller.enqueue(chunk)
      },
    }),
  )
  return new Response(counted, { status, statusText: response.statusText, headers })
}
