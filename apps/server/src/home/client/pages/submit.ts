// The league page's part for a signed-in visitor: submit one of their policy versions to the
// league, and their submissions to it. The API decides what is accepted (and says why not); the
// form only carries the choice. The form is kept across redraws, so a live event never resets a
// choice being made.
import type { LeagueSubmission, PolicyVersion } from "@gauntlet/core";

import { get, post, q, Refused, session } from "../api.ts";
import { ago, el, muted, table } from "../dom.ts";
import { href, link } from "../links.ts";

const forms = new Map<string, HTMLElement>();

/** Asks the page to read everything again (main.ts listens). */
export const redraw = () => document.dispatchEvent(new Event("gauntlet:redraw"));

function submitForm(leagueId: string, versions: readonly PolicyVersion[]): HTMLElement {
  const select = el(
    "select",
    { id: "submit-version", name: "policy_version_id", "aria-label": "policy version" },
    versions.map((v) => el("option", { value: v.id, text: `${v.policy.name} v${v.version}` })),
  ) as HTMLSelectElement;
  const said = el("p", { class: "muted", role: "status", id: "submit-said" });
  const button = el("button", { type: "submit", text: "Submit" }) as HTMLButtonElement;
  const form = el("form", { class: "submit", id: "submit-form" }, [
    el("label", { for: "submit-version", text: "Policy version" }),
    select,
    button,
  ]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    button.disabled = true;
    said.textContent = "submitting…";
    said.className = "muted";
    post<LeagueSubmission>("/v2/league-submissions", {
      league_id: leagueId,
      policy_version_id: select.value,
    })
      .then((s) => {
        said.textContent = `Submitted ${s.policy_version.name} v${s.policy_version.version}: ${s.status}${s.notes ? ` (${s.notes})` : ""}.`;
        redraw();
      })
      .catch((error: unknown) => {
        said.textContent = `Not submitted: ${error instanceof Refused ? error.detail : String(error)}`;
        said.className = "error";
      })
      .finally(() => (button.disabled = false));
  });
  return el("div", null, [form, said]);
}

export async function submitSection(leagueId: string): Promise<HTMLElement | null> {
  if (!(await session).signed_in) return null;
  const [versions, mine] = await Promise.all([
    get<PolicyVersion[]>("/v2/policy-versions?mine=true&limit=100"),
    get<LeagueSubmission[]>(`/v2/league-submissions?league_id=${q(leagueId)}&mine=true&limit=20`),
  ]);
  let form = forms.get(leagueId);
  if (!form && versions.length > 0) {
    form = submitForm(leagueId, versions);
    forms.set(leagueId, form);
  }
  return el("section", { class: "your-submissions" }, [
    el("h3", { text: "Submit a policy version" }),
    form ??
      muted("You have no policy versions yet: upload one with the CLI (`gauntlet policy upload`)."),
    el("h4", { text: "Your submissions" }),
    mine.length === 0
      ? muted("None yet.")
      : table(
          ["policy version", "player", "status", "notes", "when"],
          mine.map((s) => [
            link(
              href.policyVersion(s.policy_version.id),
              `${s.policy_version.name} v${s.policy_version.version}`,
            ),
            s.player ? link(href.player(s.player.id), s.player.name) : "—",
            s.status,
            s.notes ?? "",
            ago(s.created_at),
          ]),
        ),
  ]);
}
