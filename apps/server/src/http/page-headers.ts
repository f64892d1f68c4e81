// Headers of every HTML page the server writes itself (the sign-in form, the hosted game's
// pages, the reference, the budgets page): a policy that runs no script but the page's own
// origin's, is framed by no one, and leaks no address to the next site.
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Sent with every HTML page; the page's own policy, when it has one, replaces the default. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};
