import { USER_NOTICE_STRINGS, type UserNoticeStrings } from './user-notice.js'

/** Says so when `?user=` broke the rule and the tab got another name (see user-notice.ts). */
export function UserNotice({
  rejected,
  user,
  strings = USER_NOTICE_STRINGS,
}: {
  rejected: string | null
  user: string
  strings?: UserNoticeStrings
}) {
  if (rejected === null) return null
  return (
    <p className="user-notice" role="status" data-testid="user-notice">
      {strings.notice(rejected, user)}
    </p>
  )
}
