// Markdown to HTML for what people write (posts, comments, wiki pages). markdown-it with raw
// HTML disabled escapes every tag in the source, and its link check drops `javascript:`,
// `vbscript:`, `file:` and non-image `data:` addresses; links open without the referrer.
import MarkdownIt from "markdown-it";

import { escapeHtml } from "./html.ts";

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const defaultLinkOpen =
  md.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  if (token) token.attrSet("rel", "nofollow noopener noreferrer");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return md.render(source);
}

/** Plain text as HTML paragraphs, every character escaped. */
export function renderPlainText(source: string): string {
  return source
    .split(/\n{2,}/)
    .map((para) => `<p>${escapeHtml(para).replace(/\n/g, "<br>\n")}</p>\n`)
    .join("");
}

export function renderContent(source: string, format: string): string {
  return format === "text" ? renderPlainText(source) : renderMarkdown(source);
}
