/**
 * Why a sign-in through the identity provider came back to /login, as a code in the page's address
 * (`/login?error=<code>`). The page shows only these texts, and nothing for a code it does not
 * know: it once showed a `message` from the address as it came, so anyone's link could put their
 * words on the sign-in page (found by an attacker's review).
 */
export const SIGN_IN_ERRORS = {
  expired: "The sign-in took too long or was started in another browser. Try again.",
  refused: "The identity provider did not sign you in.",
  failed: "Signing in through the identity provider failed. Try again, or ask an admin.",
  unreachable: "The identity provider could not be reached. Try again later, or ask an admin.",
  no_id_token: "The identity provider sent no ID token. Ask an admin to check this site's OpenID Connect client.",
  no_email: "The identity provider did not share your e-mail address. Ask an admin to allow the email scope for this site.",
  email_unverified: "The identity provider has not verified your e-mail address.",
  email_verified_missing:
    "The identity provider did not say it verified your e-mail address, which a first sign-in is matched by. Ask the provider's admin to send email_verified.",
  already_linked: "Your e-mail address is already linked to another sign-in.",
  not_allowed: "Your e-mail address is not allowed to sign in here. Ask an admin to invite you.",
  disabled: "This account is disabled. Ask an admin to enable it.",
} as const satisfies Record<string, string>;

export type SignInErrorCode = keyof typeof SIGN_IN_ERRORS;

function isSignInErrorCode(code: string): code is SignInErrorCode {
  return Object.hasOwn(SIGN_IN_ERRORS, code);
}

/** The text for a code from the address, or null for none or one this site never sends. */
export function signInErrorText(code: string | null): string | null {
  return code !== null && isSignInErrorCode(code) ? SIGN_IN_ERRORS[code] : null;
}

/** Where a failed sign-in goes: back to /login, saying why by its code. */
export function signInErrorPath(code: SignInErrorCode): string {
  return `/login?error=${code}`;
}
