// Told when an episode reaches a final state: league play settles rounds from it, and other
// features (evaluations, tournaments) learn that their episodes ended.
export interface EpisodeSettledEvent {
  episodeRequestId: string;
  status: "completed" | "failed";
  purpose: string;
}
