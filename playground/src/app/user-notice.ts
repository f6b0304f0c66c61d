import { USER_RULE } from '../lib/session.js'

/** The notice's words; pass your own to `userNotice` / `showUserNotice` to replace them. */
export const USER_NOTICE_STRINGS = {
  notice: (rejected: string, user: string, param = 'user') =>
    `“${rejected}” is not a valid ?${param}= name (${USER_RULE}), so this tab is “${user}” instead.`,
}

export type UserNoticeStrings = typeof USER_NOTICE_STRINGS

/**
 * For the plain pages: a visible notice at the top of `parent` when `?user=` was replaced. A name
 * changed without a word looked like a bug (the user asked for one and got another).
 */
export function showUserNotice(
  rejected: string | null,
  user: string,
  parent: HTMLElement = document.querySelector('main') ?? document.body,
  strings: UserNoticeStrings = USER_NOTICE_STRINGS,
  param = 'user',
): void {
  if (rejected === null) return
  const p = document.createElement('p')
  p.className = 'user-notice'
  p.setAttribute('role', 'status')
  p.dataset.testid = 'user-notice'
  p.textContent = strings.notice(rejected, user, param) // textContent: the rejected name is whatever the URL held
  parent.prepend(p)
}
