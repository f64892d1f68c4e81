// The live topic `experience-request:{id}`: its requester and admins subscribe, as they read it
// over HTTP; it carries the request's own events and those of its episodes.
import type { Kysely } from "kysely";

import { ExperienceRequestId } from "@gauntlet/core";

import { canSeeEvaluation } from "../access/evaluations.ts";
import type { TopicRules } from "../events/topic-rules.ts";
import type { CompetitionEventsTable, Database } from "../store/schema.ts";

export interface ExperienceTopic {
  readonly name: string;
  readonly id: string;
}

const PREFIX = "experience-request:";

export const experienceTopicRules: TopicRules<ExperienceTopic> = {
  parse(name) {
    if (!name.startsWith(PREFIX)) return null;
    const id = name.slice(PREFIX.length);
    return ExperienceRequestId.safeParse(id).success ? { name, id } : null;
  },
  patterns: ["experience-request:{experience_request_id}"],
  async refuse(db, identity, topic) {
    const row = await db
      .selectFrom("experience_requests")
      .select(["requester_user_id"])
      .where("id", "=", topic.id)
      .executeTakeFirst();
    return row && canSeeEvaluation(identity, row)
      ? null
      : `${topic.name}: experience request ${topic.id} was not found`;
  },
  mayReceive: (identity, row) =>
    row.experience_request_id === null ||
    canSeeEvaluation(identity, { requester_user_id: row.user_id }),
  topicOf(_identity, topics, row) {
    for (const topic of topics) if (row.experience_request_id === topic.id) return topic.name;
    return null;
  },
  routes: (row) => (row.experience_request_id === null ? [] : [PREFIX + row.experience_request_id]),
  async backlog(
    db: Kysely<Database>,
    _identity,
    topics,
    after,
    limit,
  ): Promise<CompetitionEventsTable[]> {
    const ids = topics.map((t) => t.id);
    if (ids.length === 0) return [];
    const rows = await db
      .selectFrom("competition_events")
      .selectAll()
      .where("seq", ">", after)
      .where("experience_request_id", "in", ids)
      .orderBy("seq")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  },
};
