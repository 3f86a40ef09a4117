// What the login page says when a sign-in at an outside provider did not work. The server sends
// only the reason's name (`/login?signInError=state`), never text, so no link can put words of its
// choosing on our login page.
export const SIGN_IN_ERRORS = {
  state: 'Sign-in failed: the answer from the sign-in provider did not match this browser’s sign-in (it may have expired). Please try again.',
  code: 'Sign-in failed: the sign-in provider refused the sign-in code (it may have been used already). Please try again.',
  token: 'Sign-in failed: the identity the sign-in provider sent could not be verified, so no one was signed in.',
  'unverified-email': 'Sign-in refused: the sign-in provider has not verified your e-mail address. Verify it there, then try again.',
  'no-email': 'Sign-in refused: the sign-in provider did not share an e-mail address.',
  denied: 'Sign-in was cancelled at the sign-in provider.',
  unavailable: 'The sign-in provider cannot be reached right now. Please try again later.',
  'link-expired': 'Linking took too long. Please sign in with the provider again.',
  'link-password': 'Incorrect password: the accounts were not linked.',
  'link-throttled': 'Too many wrong passwords. Please wait a few minutes and try again.',
} as const

export type SignInError = keyof typeof SIGN_IN_ERRORS

export const signInErrorMessage = (code: unknown): string | null =>
  typeof code === 'string' && Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code as SignInError] : null

/** The sign-in buttons and password rule the login page shows (auth.signInOptions). */
export type SignInOptions = { providers: { id: string; name: string }[]; localLogin: boolean }
