// Drives the fuzz cases of every operation of /openapi.json against a started server and
// collects figures and problems (shared by the CI test and `pnpm reliability`).
import type { TestServer } from "../../testing/start-server.ts";
import type { Components } from "./arbitraries.ts";
import { casesFor, operationsOf, type FuzzRequest } from "./fuzz-cases.ts";
import { problemsOf } from "./response-checks.ts";
import { changedTables, openTableSnapshots } from "./table-snapshot.ts";

export interface FuzzFigures {
  operations: number;
  cases: number;
  byStatus: Record<string, number>;
  atLeast500: number;
  problems: string[];
}

export interface FuzzOptions {
  seed: number;
  generated: number;
  /** How many operations with a body get a body over the limit (each costs 10 MiB). */
  overLimitOperations: number;
  /** Called for each answer (the secrets scan collects bodies). */
  onAnswer?: (text: string) => void;
}

async function send(
  server: TestServer,
  request: FuzzRequest,
  token: string | undefined,
): Promise<{ status: number; contentType: string; text: string }> {
  const headers: Record<string, string> = { ...request.headers };
  if (token && !headers.authorization) headers.authorization = `Bearer ${token}`;
  try {
    const res = await fetch(`${server.url}${request.path}`, {
      method: request.method,
      headers,
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    return {
      status: res.status,
      contentType: res.headers.get("content-type") ?? "",
      text: await res.text(),
    };
  } catch (error) {
    // The server may close the socket of a request it refuses early (a body over the limit).
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
    if (/other side closed|ECONNRESET|EPIPE/.test(cause) && request.label === "body over the limit")
      return {
        status: 413,
        contentType: "application/json",
        text: '{"detail":{"type":"payload_too_large","message":"closed"}}',
      };
    return {
      status: 599,
      contentType: "",
      text: `no answer: ${error instanceof Error ? error.message : String(error)} ${cause}`,
    };
  }
}

export async function runFuzz(
  server: TestServer,
  tokens: readonly (string | undefined)[],
  options: FuzzOptions,
): Promise<FuzzFigures> {
  const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Record<string, unknown>;
  const components = (doc.components as { schemas?: Components } | undefined)?.schemas ?? {};
  const ops = operationsOf(doc);
  const figures: FuzzFigures = {
    operations: ops.length,
    cases: 0,
    byStatus: {},
    atLeast500: 0,
    problems: [],
  };
  const privatePaths = [server.testStore.dataDir];
  const snapshots = await openTableSnapshots(server.testStore);
  try {
    let before = await snapshots.take();
    let overLimitLeft = options.overLimitOperations;
    for (const [index, op] of ops.entries()) {
      const overLimit = op.body !== undefined && overLimitLeft > 0;
      if (overLimit) overLimitLeft -= 1;
      const cases = casesFor(op, components, {
        seed: options.seed + index,
        generated: options.generated,
        overLimit,
      });
      for (const [i, request] of cases.entries()) {
        const answer = await send(server, request, tokens[i % tokens.length]);
        options.onAnswer?.(answer.text);
        figures.cases += 1;
        figures.byStatus[answer.status] = (figures.byStatus[answer.status] ?? 0) + 1;
        if (answer.status >= 500) figures.atLeast500 += 1;
        const where = `${op.id} ${request.method} ${request.path.slice(0, 120)} [${request.label}]`;
        for (const problem of problemsOf(answer, privatePaths, op.pageStatuses))
          figures.problems.push(
            `${where}: ${problem} ${answer.status >= 500 ? answer.text.slice(0, 300) : ""}`,
          );
        const after = await snapshots.take();
        if (answer.status >= 400) {
          const changed = changedTables(before, after);
          if (changed.length)
            figures.problems.push(
              `${where}: rejected with ${answer.status} but changed ${changed.join(", ")}`,
            );
        }
        before = after;
      }
    }
  } finally {
    await snapshots.close();
  }
  return figures;
}
