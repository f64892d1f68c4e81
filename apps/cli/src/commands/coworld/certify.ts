// gauntlet coworld certify COWORLD [--wait]
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeFields, writeJson } from "../../output.ts";
import { withSpinner } from "../../spinner.ts";

const SETTLED = new Set(["certified", "failed", "never_run"]);

export interface CertifyOptions {
  coworldId: string;
  /** Poll until the certification settles; fail unless it is certified. */
  wait: boolean;
  json: boolean;
}

export async function runCertify(options: CertifyOptions, { io, client }: Deps): Promise<void> {
  const coworld_id = options.coworldId;
  let cert = await client.coworlds.certify({ coworld_id });
  if (options.wait) {
    cert = await withSpinner(
      `certifying ${coworld_id}`,
      async (spinner) => {
        let current = cert;
        while (!SETTLED.has(current.state)) {
          spinner.text(`certifying ${coworld_id}: ${current.state}`);
          await new Promise((r) => setTimeout(r, 1_000));
          current = await client.coworlds.getCertification({ coworld_id });
        }
        return current;
      },
      io.err,
    );
  }
  if (options.json) writeJson(io, cert);
  else
    writeFields(
      io,
      Object.entries(cert).map(([k, v]) => [
        k,
        typeof v === "object" ? JSON.stringify(v) : (v as string | number | boolean | null),
      ]),
    );
  if (options.wait && cert.state !== "certified")
    throw new CliError(`certification of ${coworld_id} ended ${cert.state}`, EXIT.failure);
}

export function certifyCommand(
  parent: Command,
  factory: Factory,
  run: (options: CertifyOptions, deps: Deps) => Promise<void> = runCertify,
): Command {
  return parent
    .command("certify")
    .description("Run a coworld's certification episode; --wait until it settles")
    .argument("<coworld>", "coworld id (cow_…)")
    .option("--wait", "wait for the result (exit 1 if certification fails)")
    .action(async (id: string, opts: { wait?: boolean }, cmd: Command) => {
      const options = {
        coworldId: await checkId("coworld", id, "COWORLD"),
        wait: opts.wait === true,
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
