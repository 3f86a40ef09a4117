// What the request log may say about a URL path. A password-reset link is a bearer credential
// for an hour, and reset tokens must never appear in logs, so its token segment — on the
// page `/reset-password/<token>` and the API `/api/auth/reset-password/<token>` alike — is
// replaced before the path is logged or stored with a server error.
// A share link's id is a bearer secret for what it shares: the public page `/s/<id>` loses it too.
const RESET_TOKEN = /(reset-password\/)[^/]+/gi
const SHARE_ID = /^(\/s\/)[^/]+/i

export function redactPath(pathname: string): string {
  return pathname.replace(RESET_TOKEN, '$1[redacted]').replace(SHARE_ID, '$1[redacted]')
}
