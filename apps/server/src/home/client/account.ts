// The header's account corner: "Sign in", or who is signed in and a button to sign out (which
// revokes the session's token on the server and clears its cookie).
import { post, session } from "./api.ts";
import { el } from "./dom.ts";

export async function showAccount(): Promise<void> {
  const s = await session;
  const signIn = document.getElementById("sign-in");
  if (!s.signed_in || !signIn) return;
  const out = el("button", { type: "button", id: "sign-out", text: "Sign out" });
  out.addEventListener("click", () => {
    void post("/web/sign-out").finally(() => location.reload());
  });
  signIn.replaceWith(
    el("span", { class: "account", id: "account" }, [
      el("span", { class: "muted", text: s.user_email ?? "" }),
      " ",
      out,
    ]),
  );
}
