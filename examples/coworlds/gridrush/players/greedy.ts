// Baseline player "greedy" (see strategies.ts).
import { play } from "./client.ts";
import { greedy } from "./strategies.ts";

play("greedy", greedy);
