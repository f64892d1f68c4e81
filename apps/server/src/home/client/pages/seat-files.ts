// An episode's logs and artifacts, for a signed-in visitor: each seat's log and artifact is
// asked for as the visitor, and shown when the API answers it (its owner, the league's
// commissioner, the requester, admins); the page never decides who may read what.
import type { EpisodeRequest, PolicyArtifactEntry } from "@gauntlet/core";

import { get, maybeGet, q, session } from "../api.ts";
import { el, muted } from "../dom.ts";

/** The first 64 KB of a log: enough to read in a page; the CLI fetches the whole of it. */
const LOG_SHOWN = 64 * 1024;

function download(response: Response, name: string): HTMLElement {
  const button = el("button", { type: "button", text: `download ${name}` });
  let blob: Promise<Blob> | undefined;
  button.addEventListener("click", () => {
    blob ??= response.blob();
    void blob.then((b) => {
      const url = URL.createObjectURL(b);
      const a = el("a", { href: url, download: name });
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    });
  });
  return button;
}

async function seat(e: EpisodeRequest, entry: PolicyArtifactEntry): Promise<HTMLElement | null> {
  const pv = q(entry.policy_version_id ?? "");
  const path = `/v2/episode-requests/${q(e.id)}/${pv}`;
  const [log, artifact] = await Promise.all([
    entry.has_log ? maybeGet(`${path}/policy-logs/${entry.position}`) : null,
    entry.has_artifact ? maybeGet(`${path}/policy-artifact/${entry.position}`) : null,
  ]);
  if (!log && !artifact) return null;
  const text = log ? await log.text() : "";
  return el("div", { class: "seat-files", "data-seat": String(entry.position) }, [
    el("h4", { text: `Seat ${entry.position}: ${entry.policy_name}` }),
    log
      ? el("pre", {
          class: "log",
          tabindex: "0",
          "aria-label": `log of seat ${entry.position}`,
          text:
            text.length > LOG_SHOWN
              ? `${text.slice(0, LOG_SHOWN)}\n… (the rest: gauntlet episode logs)`
              : text,
        })
      : null,
    artifact ? download(artifact, `seat-${entry.position}-artifact`) : null,
  ]);
}

export async function seatFiles(e: EpisodeRequest): Promise<HTMLElement[]> {
  const note = muted(
    "A seat's logs and artifacts are for the policy's owner, the league's commissioner, the episode's requester and admins.",
  );
  if (!(await session).signed_in)
    return [note, muted("Sign in to read those of your own policies.")];
  const entries = await get<PolicyArtifactEntry[]>(
    `/v2/episode-requests/${q(e.id)}/policy-artifacts`,
  );
  const seats = (await Promise.all(entries.map((entry) => seat(e, entry)))).filter(
    (s): s is HTMLElement => s !== null,
  );
  return seats.length
    ? seats
    : [note, muted("None of this episode's logs or artifacts are yours to read.")];
}
