import { escapeHtml, page } from "../http/html.ts";
import { PAGE_CONTENT_SECURITY_POLICY } from "../http/page-headers.ts";

/**
 * The page's policy: the form posts here, and the answer redirects to the command-line client's
 * loopback callback, which `form-action` must name too (browsers check a form's redirects).
 */
export function cliLoginPolicy(callback: string): string {
  return PAGE_CONTENT_SECURITY_POLICY.replace(
    "form-action 'self'",
    `form-action 'self' ${new URL(callback).origin}`,
  );
}

export function cliLoginPage(input: {
  /** The path the form posts to: the page's own (`cli-login` or `cli-auth`). */
  action: string;
  callback?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
  email?: string | undefined;
  /** The front page's address, `./` by default (relative, like the form's action, so that it
   * holds under the data host's prefix and at another host's root). */
  home?: string | undefined;
}): string {
  const callbackHost = (() => {
    if (input.callback === undefined) return undefined;
    try {
      return new URL(input.callback).host;
    } catch {
      return input.callback;
    }
  })();
  return page(
    "Sign in to Gauntlet",
    `<h1>Sign in to Gauntlet</h1>
${
  callbackHost === undefined
    ? `<p>This is where the command-line client signs in. <code>gauntlet auth login --server &lt;this server&gt;</code> opens it for you and takes the credential back by itself.</p>
<p>Opened by hand, it works too: sign in, and it shows what to paste into your terminal (a one-time code, or a token). To look around without signing in, see <a href="${escapeHtml(input.home ?? "./")}">the server's front page</a>.</p>`
    : `<p>The command-line client on <code>${escapeHtml(callbackHost)}</code> asks to sign in as you.</p>`
}
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ""}
<form method="post" action="${escapeHtml(input.action)}">
${input.callback ? `<input type="hidden" name="callback" value="${escapeHtml(input.callback)}">` : ""}
${input.state ? `<input type="hidden" name="state" value="${escapeHtml(input.state)}">` : ""}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? "")}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** The credential, for a client without a callback: a one-time code, or a token to paste. */
export function cliLoginCodePage(kind: "code" | "token", value: string): string {
  const what = kind === "code" ? "sign-in code" : "token";
  return page(
    `Your ${what}`,
    `<h1>Your ${what}</h1>
<p>Paste this ${what} into the terminal that asked you to sign in.${kind === "code" ? " It works once, within five minutes." : " It is shown only this once."}
Never give it to anyone else: it signs in as you.</p>
<p><code id="${kind}">${escapeHtml(value)}</code></p>`,
  );
}

/** Sign-in codes go only to the caller's own machine, so a crafted link cannot steal one. */
export function isLoopbackCallback(callback: string): boolean {
  try {
    const url = new URL(callback);
    return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  } catch {
    return false;
  }
}
