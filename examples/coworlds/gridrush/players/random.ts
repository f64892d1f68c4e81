// Baseline player "random": a uniformly random move every turn.
import { play } from "./client.ts";
import { randomMove } from "./strategies.ts";

play("random", randomMove);
