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
  callback: string;
  state?: string | undefined;
  error?: string | undefined;
  email?: string | undefined;
}): string {
  const callbackHost = (() => {
    try {
      return new URL(input.callback).host;
    } catch {
      return input.callback;
    }
  })();
  return page(
    "Sign in to Gauntlet",
    `<h1>Sign in to Gauntlet</h1>
<p>The command-line client on <code>${escapeHtml(callbackHost)}</code> asks to sign in as you.</p>
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ""}
<form method="post" action="cli-login">
<input type="hidden" name="callback" value="${escapeHtml(input.callback)}">
${input.state ? `<input type="hidden" name="state" value="${escapeHtml(input.state)}">` : ""}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? "")}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
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
