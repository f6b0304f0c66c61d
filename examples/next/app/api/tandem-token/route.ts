import { tokenRoute } from '@tandem/next/server'
import { MINT, USER } from '../../../lib/tandem'

export const { GET, POST } = tokenRoute({ ...MINT, authorize: () => USER })
