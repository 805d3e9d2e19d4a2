// English strings of the window. The keys are the i18n module's message keys; zh.ts must have
// every one (the compiler checks). `{name}` marks a value filled in by `t`.
export const en = {
  "app.tagline": "Your Garmin Connect data, for your AI assistant",
  "app.language": "Language",
  "app.demoBadge": "Demo",
  "app.demoBadgeTitle": "Demo account: sample data from a fake Garmin, not your Garmin account",

  "site.global.name": "Garmin international",
  "site.global.detail": "connect.garmin.com — sign in with an email, or a phone number outside China",
  "site.global.label": "Garmin international (connect.garmin.com)",
  "site.cn.name": "Garmin China",
  "site.cn.detail": "connect.garmin.cn — accounts with a +86 phone number",
  "site.cn.label": "Garmin China (connect.garmin.cn)",
  "site.demo.name": "Demo account",
  "site.demo.detail": "Offline sample data from a fake Garmin inside the app: try everything without an account.",
  "site.demo.label": "Demo account (sample data, not your Garmin account)",

  "picker.titleFirst": "Where does your Garmin account live?",
  "picker.titleSwitch": "Switch account",
  "picker.intro":
    "Pick your site. You sign in on Garmin's own page in a separate window: your password goes only to Garmin, never to this app.",
  "picker.paste": "Garmin's sign-in page does not load? Paste cookies instead",
  "picker.back": "Back",

  "signing.title": "Sign in in the Garmin window",
  "signing.titleDemo": "Signing in to the demo account",
  "signing.body":
    "A window with Garmin's sign-in page has opened. Sign in there, including any verification code. This window continues by itself when you are done.",
  "signing.bodyDemo":
    "The fake Garmin's sign-in page fills itself in and continues. No real account or password is involved.",
  "signing.cancel": "Cancel",
  "signing.windowTitle": "Sign in to {site}",
  "signing.windowTitleDemo": "Demo sign-in (fake Garmin, sample data)",

  "paste.title": "Sign in with cookies from your browser",
  "paste.intro":
    "For when Garmin's sign-in page will not load in the app. In a browser that is signed in to Garmin Connect, open {url}/app/, then the developer tools (F12) → Network, and click any request to /gc-api/.",
  "paste.site": "Site",
  "paste.cookies": "Cookies",
  "paste.cookiesHint":
    "The request's Cookie header, or a cookie list exported by a browser extension (JSON or cookies.txt).",
  "paste.csrf": "CSRF token",
  "paste.csrfHint": "The value of the same request's connect-csrf-token header.",
  "paste.userAgent": "Browser User-Agent (optional)",
  "paste.userAgentHint":
    "Garmin may accept the cookies only together with the browser they came from: copy the request's User-Agent header.",
  "paste.submit": "Check and save",
  "paste.checking": "Checking with Garmin…",
  "paste.privacy":
    "Nothing is saved unless Garmin accepts it, and then only in the private session file on this computer.",
  "paste.back": "Back",

  "home.loading": "Reading the saved session…",
  "home.accountFallback": "Garmin account",
  "home.demoNote": "Sample data from a fake Garmin inside this app, not your Garmin account.",
  "home.switch": "Switch account",
  "home.signOut": "Sign out",
  "home.leaveDemo": "Leave demo",
  "home.confirmSignOut":
    "Sign out on this computer? AI assistants using Garmin MCP lose access until you sign in again.",
  "home.confirmLeaveDemo": "Leave the demo account? Its sample session is removed; your own sign-in is not touched.",
  "home.signingOut": "Signing out…",
  "home.cancel": "Cancel",
  "home.session": "Session",
  "home.signedIn": "Signed in",
  "home.lastRenewed": "Last renewed",
  "home.notRenewed": "Not yet",
  "home.renewHint": "renewals happen on their own while you use it",
  "home.renewalsOne": "1 renewal so far",
  "home.renewalsMany": "{count} renewals so far",
  "home.accessToken": "Access token",
  "home.accessUnknown": "Unknown; it is renewed automatically when needed.",
  "home.accessValid": "Expires {when}; renewed automatically before then.",
  "home.accessExpired": "Expired {when}; renewed on the next request to Garmin.",
  "home.signInLasts": "Sign-in lasts",
  "home.signInStated": "Until about {date}, as Garmin states ({relative}).",
  "home.signInEstimated": "Until about {date} ({relative}); an estimate: Garmin sign-ins usually last about three months.",
  "home.checkNow": "Check now",
  "home.checking": "Checking…",
  "home.askingGarmin": "Asking Garmin Connect…",
  "home.checkOk": "Garmin accepted the session",
  "home.checkOkAt": "at {time}",
  "home.signInAgain": "Sign in again",

  "error.details": "Details",
  "error.tryAgain": "Try again",
  "error.not_signed_in.title": "You are not signed in to Garmin Connect.",
  "error.not_signed_in.next": "Pick your Garmin site and sign in.",
  "error.session_expired.title": "Garmin no longer accepts this sign-in.",
  "error.session_expired.next": "Sign in again: press Sign in again and pick your site.",
  "error.network.title": "Garmin Connect could not be reached.",
  "error.network.next": "Check your internet connection (or proxy), then try again.",
  "error.sign_in_closed.title": "The sign-in window was closed before signing in finished.",
  "error.sign_in_closed.next": "Pick your site again to start over.",
  "error.wrong_site.title": "Your account lives on the other Garmin site.",
  "error.wrong_site.next": "Pick the other site and sign in again; the details say which one.",
  "error.sign_in_rejected.title": "Garmin did not accept the sign-in.",
  "error.sign_in_rejected.next": "Sign in again. If it keeps failing, use Paste cookies instead.",
  "error.invalid_input.title": "That cannot be used to sign in.",
  "error.invalid_input.next": "The details say what to fix.",
  "error.other.title": "Something went wrong.",
  "error.other.next": "The details say what happened. If it keeps happening, please report it.",
} as const;

/** A message key. */
export type MessageKey = keyof typeof en;
