// gauntlet coworld upload DIR|list|show|certify [--wait]|secret put|list|delete
import { readFileSync } from "node:fs";
import { join } from "node:path";

import type { Command } from "commander";

import { checkId, clientOf, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printFields, printJson, printTable, shortTime } from "../output.ts";
import { megabytes, packDirectory } from "../pack.ts";
import { withSpinner } from "../spinner.ts";
import type { CommandGroup } from "./group.ts";

const SETTLED = new Set(["certified", "failed", "never_run"]);

function readManifest(dir: string): Record<string, unknown> {
  const path = join(dir, "coworld_manifest.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CliError(`DIR: no coworld_manifest.json in '${dir}'`, EXIT.usage);
  }
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json !== "object" || json === null || Array.isArray(json))
      throw new Error("not an object");
    return json as Record<string, unknown>;
  } catch {
    throw new CliError(`${path}: not a JSON object`, EXIT.usage);
  }
}

async function readSecretValue(): Promise<Uint8Array> {
  if (process.stdin.isTTY)
    throw new CliError(
      "the secret's value is read from standard input: gauntlet coworld secret put NAME SECRET < value.txt",
      EXIT.usage,
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

export const coworld: CommandGroup = {
  register(program) {
    const group = program
      .command("coworld")
      .description("Coworlds: the packaged games episodes run in");

    group
      .command("upload")
      .description("Upload a coworld: DIR holds coworld_manifest.json and the files it runs")
      .argument("<dir>", "the coworld's directory")
      .action(async (dir: string, _opts: unknown, cmd: Command) => {
        const manifest = readManifest(dir);
        const bundle = await packDirectory(dir, "DIR");
        const client = await clientOf(cmd);
        const created = await withSpinner(
          `uploading ${megabytes(bundle.byteLength)}`,
          async (spinner) => {
            const { upload_id } = await client.coworlds.uploadBundle({ body: bundle });
            spinner.text("registering the coworld");
            // The manifest is checked by the server against the contract; its errors name the field.
            return client.coworlds.upload({
              body: { manifest, bundle_upload_id: upload_id },
            });
          },
        );
        if (wantsJson(cmd)) return printJson(created);
        note(`uploaded coworld ${created.name} ${created.version} (${created.id})`);
      });

    group
      .command("list")
      .description("List coworlds")
      .option("--name <name>", "only versions of this coworld")
      .option("--canonical", "only the canonical version of each")
      .action(async (opts: { name?: string; canonical?: boolean }, cmd: Command) => {
        const client = await clientOf(cmd);
        const list = await client.coworlds.list({
          ...(opts.name ? { name: opts.name } : {}),
          ...(opts.canonical ? { canonical_only: true } : {}),
        });
        if (wantsJson(cmd)) return printJson(list);
        printTable(
          ["id", "name", "version", "canonical", "created"],
          list.map((c) => [
            c.id,
            c.name,
            c.version,
            c.canonical ? "yes" : "no",
            shortTime(c.created_at),
          ]),
          "no coworlds",
        );
      });

    group
      .command("show")
      .description("Show one coworld")
      .argument("<coworld>", "coworld id (cow_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const coworld_id = await checkId("coworld", id, "COWORLD");
        const client = await clientOf(cmd);
        const c = await client.coworlds.get({ coworld_id });
        if (wantsJson(cmd)) return printJson(c);
        printFields([
          ["id", c.id],
          ["name", c.name],
          ["version", c.version],
          ["canonical", c.canonical],
          ["game", c.game_id],
          ["created", shortTime(c.created_at)],
        ]);
      });

    group
      .command("certify")
      .description("Run a coworld's certification episode; --wait until it settles")
      .argument("<coworld>", "coworld id (cow_…)")
      .option("--wait", "wait for the result (exit 1 if certification fails)")
      .action(async (id: string, opts: { wait?: boolean }, cmd: Command) => {
        const coworld_id = await checkId("coworld", id, "COWORLD");
        const client = await clientOf(cmd);
        let cert = await client.coworlds.certify({ coworld_id });
        if (opts.wait) {
          cert = await withSpinner(`certifying ${coworld_id}`, async (spinner) => {
            let current = cert;
            while (!SETTLED.has(current.state)) {
              spinner.text(`certifying ${coworld_id}: ${current.state}`);
              await new Promise((r) => setTimeout(r, 1_000));
              current = await client.coworlds.getCertification({ coworld_id });
            }
            return current;
          });
        }
        if (wantsJson(cmd)) printJson(cert);
        else
          printFields(
            Object.entries(cert).map(([k, v]) => [
              k,
              typeof v === "object" ? JSON.stringify(v) : (v as string | number | boolean | null),
            ]),
          );
        if (opts.wait && cert.state !== "certified")
          throw new CliError(`certification of ${coworld_id} ended ${cert.state}`, EXIT.failure);
      });

    const secret = group.command("secret").description("Secrets handed to a coworld's episodes");
    secret
      .command("put")
      .description("Set a secret; its value is read from standard input")
      .argument("<coworld-name>", "the coworld's name")
      .argument("<secret>", "the secret's name")
      .action(async (name: string, secretName: string, _opts: unknown, cmd: Command) => {
        const value = await readSecretValue();
        const client = await clientOf(cmd);
        const saved = await client.coworldSecrets.put({
          coworld_name: name,
          secret_name: secretName,
          body: value,
        });
        if (wantsJson(cmd)) return printJson(saved);
        note(`saved secret ${saved.secret_name} for ${name} (${saved.size_bytes} bytes)`);
      });
    secret
      .command("list")
      .description("List a coworld's secrets (names only)")
      .argument("<coworld-name>", "the coworld's name")
      .action(async (name: string, _opts: unknown, cmd: Command) => {
        const client = await clientOf(cmd);
        const list = await client.coworldSecrets.list({ coworld_name: name });
        if (wantsJson(cmd)) return printJson(list);
        printTable(
          ["secret", "bytes"],
          list.map((s) => [s.secret_name, s.size_bytes]),
          "no secrets",
        );
      });
    secret
      .command("delete")
      .description("Delete a secret")
      .argument("<coworld-name>", "the coworld's name")
      .argument("<secret>", "the secret's name")
      .action(async (name: string, secretName: string, _opts: unknown, cmd: Command) => {
        const client = await clientOf(cmd);
        const deleted = await client.coworldSecrets.delete({
          coworld_name: name,
          secret_name: secretName,
        });
        if (wantsJson(cmd)) return printJson(deleted);
        note(`deleted secret ${deleted.secret_name} of ${name}`);
      });
  },
};
