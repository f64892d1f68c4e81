import { describe, expect, it } from "vitest";

import { ifNotFound, invalidInput, notFound, ServiceError } from "./errors.ts";

describe("ifNotFound", () => {
  it("words a lookup's 404 the caller's way", async () => {
    const lookup = Promise.reject(notFound("division", "div_x"));
    await expect(ifNotFound(lookup, () => notFound("round", "rnd_y"))).rejects.toMatchObject({
      status: 404,
      message: "round rnd_y was not found.",
    });
    await expect(
      ifNotFound(Promise.reject(notFound("coworld", "cw_1")), () =>
        invalidInput(["body", "coworld_id"], "no coworld cw_1"),
      ),
    ).rejects.toMatchObject({ items: [{ loc: ["body", "coworld_id"] }] });
  });

  // A query that fails (a lost database connection) is the server's error, not "not found".
  it("lets any other failure through unchanged", async () => {
    const broken = new Error("connection terminated");
    await expect(ifNotFound(Promise.reject(broken), () => notFound("round"))).rejects.toBe(broken);
    const forbidden = new ServiceError(403, "forbidden", "not yours");
    await expect(ifNotFound(Promise.reject(forbidden), () => notFound("round"))).rejects.toBe(
      forbidden,
    );
  });

  it("answers the lookup's value when it succeeds", async () => {
    expect(await ifNotFound(Promise.resolve(7), () => notFound("round"))).toBe(7);
  });
});
