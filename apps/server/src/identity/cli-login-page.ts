import { escapeHtml, page } from "../http/html.ts";

export function cliLoginPage(input: {
  /** The path the form posts to: the page's own (`cli-login` or `cli-auth`). */
  action: string;
  callback?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
  email?: string | undefined;
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
    ? "<p>Sign in, and this page shows a one-time code to paste into your terminal.</p>"
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

/** The one-time code, for a client without a callback (`softmax exchange-code <code>`). */
export function cliLoginCodePage(code: string): string {
  return page(
    "Your sign-in code",
    `<h1>Your sign-in code</h1>
<p>Paste this code into the terminal that asked you to sign in. It works once, within five minutes.
Never give it to anyone else: it signs in as you.</p>
<p><code id="code">${escapeHtml(code)}</code></p>`,
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
