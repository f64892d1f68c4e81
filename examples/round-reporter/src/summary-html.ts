// The HTML write-up of one settled round. Every value from the service is escaped: a player
// may name itself `<script>`.
import type { DivisionLeaderboard, RoundDetail } from "@gauntlet/core";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface RoundSummaryInput {
  divisionName: string;
  headline: string;
  summary: string;
  round: RoundDetail;
  standings: DivisionLeaderboard;
}

export function roundSummaryHtml(input: RoundSummaryInput): string {
  const { round, standings } = input;
  const rows = (standings ?? [])
    .map(
      (row) =>
        `<tr><td>${row.rank}</td><td>${escapeHtml(row.player_name)}</td><td>${row.score.toFixed(1)}</td><td>${row.rounds_played}</td></tr>`,
    )
    .join("\n");
  const title = `${input.divisionName}: round ${round.round_number}`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(input.headline)}. ${escapeHtml(input.summary)}</p>
<p>Status: ${escapeHtml(round.status)}; settled ${escapeHtml(round.completed_at ?? "")}.</p>
<table>
<thead><tr><th>Rank</th><th>Player</th><th>Score</th><th>Rounds</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="4">No standings yet.</td></tr>'}
</tbody>
</table>
</body>
</html>
`;
}
