// Gauntlet's ids carry a kind prefix (`div_<uuid>`); the protocol's are bare UUIDs (the upstream
// models parse them as UUID). A commissioner sees the UUID and answers with it; the driver puts
// the prefix back, and also takes the prefixed form, so either reads as the same division.
import { idPrefixes, type IdKind } from "@gauntlet/core";

/** The id as a commissioner sees it. */
export function toWire(id: string): string {
  const cut = id.lastIndexOf("_");
  return cut >= 0 ? id.slice(cut + 1) : id;
}

/** The Gauntlet id a commissioner's id names, given the kind the field holds. */
export function fromWire(kind: IdKind, wire: string): string {
  const prefix = idPrefixes[kind];
  return wire.startsWith(prefix) ? wire : `${prefix}${wire}`;
}
