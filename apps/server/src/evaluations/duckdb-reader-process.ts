// The child process that reads one bulk-upload DuckDB file (duckdb-sandbox.ts starts it): the
// file's path and limits arrive as one IPC message, the episodes or the refusal leave as one.
// A crash, a runaway query or a memory blow-up here ends this process, never the server.
import { ServiceError } from "../shared/errors.ts";
import { readEpisodeFile, type ReaderLimits, type UploadedEpisode } from "./duckdb-episodes.ts";

export interface ReaderRequest {
  path: string;
  limits: ReaderLimits;
}

/** The episodes as JSON text: one string crosses the pipe far faster than 100,000 objects. */
export type ReaderReply =
  { ok: true; episodes: string } | { ok: false; refused: boolean; message: string };

process.once("message", (message: ReaderRequest) => {
  const send = (reply: ReaderReply) =>
    process.send?.(reply, undefined, undefined, () => process.disconnect());
  readEpisodeFile(message.path, message.limits).then(
    (episodes: UploadedEpisode[]) => send({ ok: true, episodes: JSON.stringify(episodes) }),
    (error: unknown) =>
      send(
        error instanceof ServiceError
          ? { ok: false, refused: true, message: error.message }
          : { ok: false, refused: false, message: String(error) },
      ),
  );
});
