// Addresses a watcher can open or curl (replays, logs), built from the contract's paths so they
// follow the API wherever it is served.
import { contract, type OperationId } from "@gauntlet/core";

export function operationUrl(
  baseUrl: string,
  id: OperationId,
  params: Readonly<Record<string, string | number>>,
): string {
  const path = contract[id].path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${id}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  return `${baseUrl}${path}`;
}
