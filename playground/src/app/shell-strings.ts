/**
 * The words of the app shell's updates, in one place so an app can replace them: pass
 * `strings={{ … }}` to `<UpdateNotice>`; what is left out keeps its default.
 */
export const SHELL_STRINGS = {
  /** A new version of the page is installed and waits (the open page keeps the old one). */
  updateReady: 'A new version of the playground is ready.',
  reload: 'Reload',
  reloadTitle: 'Loads the new version; changes waiting to be sent stay on this device',
}

export type ShellStrings = typeof SHELL_STRINGS
