// Responses are serialised by a function compiled from the contract's JSON Schema of each
// operation (fast-json-stringify, fastify's own serialiser), not by a generic JSON.stringify:
// it writes the known fields of the shape directly. Compiled on an operation's first reply (a few
// ms each, so a server does not pay for all of them at start). The schema is the response's
// input side (a field with a default may be absent: the handler's value goes out as it is).
import fastJson from "fast-json-stringify";
import { z } from "zod";

import type { OperationDef } from "@gauntlet/core";

export type Serialise = (value: unknown) => string;

// What fastify sets for a serialised object; a string sent with it goes out as it is.
export const JSON_TYPE = "application/json; charset=utf-8";

const compiled = new WeakMap<OperationDef, Serialise>();

function compile(op: OperationDef): Serialise {
  try {
    const schema = z.toJSONSchema(op.response, {
      target: "draft-7",
      io: "input",
      unrepresentable: "any",
      reused: "inline",
    });
    const serialise = fastJson(schema as Parameters<typeof fastJson>[0]);
    return (value) => serialise(value);
  } catch {
    // A schema the compiler cannot take is still served, generically.
    return (value) => JSON.stringify(value);
  }
}

/** The compiled serialiser of an operation's response. */
export function serialiserOf(op: OperationDef): Serialise {
  let serialise = compiled.get(op);
  if (!serialise) {
    serialise = compile(op);
    compiled.set(op, serialise);
  }
  return serialise;
}
