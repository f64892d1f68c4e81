// The web view's sign-in page: the CLI sign-in's form (email, password) in the web view's look,
// served by the server with no script at all.
import { escapeHtml } from "../http/html.ts";
import { WEB_STYLES } from "./web-page.ts";

export function webSignInPage(input: {
  basePath: string;
  email?: string | undefined;
  error?: string | undefined;
}): string {
  const b = escapeHtml(input.basePath);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in · Gauntlet</title>
<style>${WEB_STYLES}
form.sign-in{max-width:24rem;margin-top:1rem}form.sign-in label{display:block;margin:.8rem 0 .2rem}
form.sign-in input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box;color:inherit;background:var(--card);border:1px solid var(--line);border-radius:4px}
form.sign-in button{font:inherit;margin-top:1rem;padding:.45rem 1.2rem}</style>
</head><body>
<header><h1><a href="${b}/">Gauntlet</a></h1><nav><a href="${b}/docs">API reference</a></nav></header>
<main id="page">
<h2>Sign in</h2>
<p class="muted">With the email and password you use for the command-line client. Signed in, the pages also show your private leagues, evaluations and the logs of your own policies, and you can submit a policy version to a league.</p>
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ""}
<form class="sign-in" method="post" action="sign-in">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(input.email ?? "")}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</main>
</body></html>`;
}
