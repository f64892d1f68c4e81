// JSON Schema validation of game-authored schemas (config_schema, results_schema). Draft
// 2020-12 by default; a schema that declares draft-07 is checked as draft-07. Compiled
// validators are kept per schema object, so a manifest's schemas compile once.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { Ajv2020 } from "ajv/dist/2020.js";

// ajv-formats is CommonJS: its default export arrives as the module object under ESM type checking.
const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

const options = { allErrors: true, strict: false, logger: false } as const;
const draft2020 = new Ajv2020(options);
const draft07 = new Ajv(options);
addFormats(draft2020);
addFormats(draft07);

const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles a schema; throws with ajv's message when the schema itself is not valid. */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
    validate = (dialect.includes("draft-07") ? draft07 : draft2020).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The problems of `value` against `validate`, as `path message` lines; empty when valid. */
export function schemaProblems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error: ErrorObject) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`,
  );
}
