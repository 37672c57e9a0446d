/**
 * @module
 * The page a sign-in link answers instead of signing in when the browser
 * already holds a session of another user, or holds none and did not ask for
 * the link (session/link-binding.ts; docs/security.md#login-csrf).
 * Opening a link is a GET anybody can make a browser do (a link on any
 * site, a redirect); if it signed in silently, an attacker could send the
 * victim a link to the attacker's own account and have the victim carry on,
 * unaware, inside it. The page names the account and asks for one click: a
 * POST form back to the same path (its route completes the sign-in), and a
 * link to leave instead. The POST comes from this page's own origin, so it
 * passes the origin check that refuses cross-site form posts.
 */
import { escapeHtml, htmlPageResponse } from './error-page.js'

export interface ConfirmSignInContent {
  /** The application's name, for the title. */
  readonly appName?: string | undefined
  /** The account the link signs in to, shown on the button. */
  readonly email: string
  /** Absolute URL of the POST route that completes the sign-in. */
  readonly action: string
  /** Hidden form fields: the link's token and redirect targets, posted as they came. */
  readonly fields: Readonly<Record<string, string | undefined>>
  /** Where "Cancel" leads: the link's callbackURL (already checked as a redirect target), else `/`. */
  readonly cancelURL?: string | undefined
  /**
   * `switch` (the default): the browser is signed in to another account.
   * `unrequested`: it is signed out, and the link was asked for elsewhere.
   */
  readonly reason?: 'switch' | 'unrequested' | undefined
}

/**
 * The confirmation page as a Response (200, escaped, no script, never framed or cached).
 *
 * @example
 * return confirmSignInPage({ appName, email: 'ada@example.com', action: `${ctx.auth.baseURL}/magic-link/verify`, fields: { token }, cancelURL: '/' })
 */
export function confirmSignInPage(content: ConfirmSignInContent): Response {
  const email = content.email.slice(0, 320)
  const unrequested = content.reason === 'unrequested'
  return confirmationPage({
    appName: content.appName,
    title: unrequested ? 'sign in?' : 'switch account?',
    heading: unrequested ? 'Sign in?' : 'Switch account?',
    message: unrequested
      ? ['The link you opened signs this browser in as ', { strong: email }, '. Continue only if you asked for it.']
      : ['This browser is signed in to another account. The link you opened signs it in as ', { strong: email }, ' instead.'],
    button: `Continue as ${email}`,
    action: content.action,
    fields: content.fields,
    cancelURL: content.cancelURL,
  })
}

/** What a one-button confirmation page says and where its form posts. Every text is escaped here. */
export interface ConfirmationContent {
  readonly appName?: string | undefined
  /** After the app's name in the title. */
  readonly title: string
  readonly heading: string
  /** The explanation: plain texts, and `{ strong }` parts shown in bold. */
  readonly message: ReadonlyArray<string | { readonly strong: string }>
  readonly button: string
  /** Absolute URL the form posts to. */
  readonly action: string
  readonly fields: Readonly<Record<string, string | undefined>>
  readonly cancelURL?: string | undefined
}

/**
 * A page that asks for one click before a GET does something a third party
 * could make a browser do (switch the signed-in account, sign out): one POST
 * form back to the server, and a Cancel link. The POST comes from this
 * page's own origin, so it passes the origin check.
 *
 * @example
 * return confirmationPage({ title: 'sign out?', heading: 'Sign out?', message: ['You are signed in as ', { strong: email }, '.'], button: 'Sign out', action, fields: {} })
 */
export function confirmationPage(content: ConfirmationContent): Response {
  const title = escapeHtml(content.appName ?? 'Account')
  const message = content.message.map((part) => (typeof part === 'string' ? escapeHtml(part) : `<strong>${escapeHtml(part.strong)}</strong>`)).join('')
  const hidden = Object.entries(content.fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n')
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}: ${escapeHtml(content.title)}</title></head>
<body>
<main>
<h1>${escapeHtml(content.heading)}</h1>
<p>${message}</p>
<form method="post" action="${escapeHtml(content.action)}">
${hidden}
<button type="submit">${escapeHtml(content.button)}</button>
</form>
<p><a href="${escapeHtml(content.cancelURL || '/')}">Cancel</a></p>
</main>
</body>
</html>
`
  // The page's URL may hold a link's token: "Cancel" must not hand it on in a Referer. Not `no-referrer`:
  // under it a browser sends `Origin: null` with the form post, which the origin check refuses.
  return htmlPageResponse(html, 200, { 'referrer-policy': 'strict-origin' })
}
