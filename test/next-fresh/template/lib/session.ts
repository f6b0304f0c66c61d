// Stands for your auth library (Auth.js's auth(), Clerk's currentUser(), your own session). This
// app's test signs a user in with a plain cookie: never trust a bare cookie like this in production.
import { cookies } from 'next/headers'

export async function currentUser(): Promise<{ id: string } | null> {
  const id = (await cookies()).get('demo-user')?.value
  return id ? { id } : null
}
