// A cap on how much of an answer is read, enforced while reading (memory stays flat): past it the
// stream is cancelled and the read fails with `ResponseTooLarge`, which the pipeline turns into an
// `ApiError` `response_too_large`.

/** Thrown (into the body read, or by the fetch itself) when an answer is larger than allowed. */
export class ResponseTooLarge extends Error {
  constructor(
    readonly maxBytes: number,
    readonly status: number,
    readonly requestId: string | undefined,
  ) {
    super(`the answer is larger than ${maxBytes} bytes`)
  }
}

/** Statuses whose Response cannot be rebuilt with a body (and that have none). */
const NULL_BODY = new Set([101, 204, 205, 304])

/** `response`, or one that reads at most `maxBytes` of its body. */
export function limitBody(response: Response, maxBytes: number): Response {
  const { status, headers, body } = response
  const requestId = headers.get('x-request-id') ?? undefined
  const declared = Number(headers.get('content-length') ?? NaN)
  if (declared > maxBytes) {
    void body?.cancel().catch(() => {})
    throw new ResponseTooLarge(maxBytes, status, requestId)
  }
  // A declared length within the cap binds the body already (fetch refuses more), unless it is
  // the compressed length: then only counting the decoded bytes is safe.
  const encoded = (headers.get('content-encoding') ?? 'identity') !== 'identity'
  if (!body || (declared >= 0 && !encoded) || status < 200 || NULL_BODY.has(status)) return response
  let read = 0
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength
        if (read > maxBytes) controller.error(new ResponseTooLarge(maxBytes, status, requestId))
        else controller.enqueue(chunk)
      },
    }),
  )
  return new Response(counted, { status, statusText: response.statusText, headers })
}
