// The README quick start's `yourSession` ("your own auth"), in the app its blocks make up
// (test/docs/quick-start.test.ts): a user is signed in when the request carries their session cookie.

export async function yourSession(request: Request): Promise<{ id: string } | null> {
  const cookie = request.headers.get('cookie') ?? ''
  const user = /(?:^|;\s*)session=([\w-]+)/.exec(cookie)?.[1]
  return user ? { id: user } : null
}
