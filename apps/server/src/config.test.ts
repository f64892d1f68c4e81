import { describe, expect, it } from "vitest";

import { resolveConfig } from "./config.ts";

const S3 = {
  GAUNTLET_BLOB_STORE: "s3",
  GAUNTLET_S3_ENDPOINT: "http://127.0.0.1:9000",
  GAUNTLET_S3_BUCKET: "episodes",
  GAUNTLET_S3_ACCESS_KEY_ID: "key",
  GAUNTLET_S3_SECRET_ACCESS_KEY: "secret",
};

describe("the blob store's configuration", () => {
  it("is the data directory's blobs/ unless GAUNTLET_BLOB_STORE says s3", () => {
    expect(resolveConfig({}, {}).blobStore).toEqual({ kind: "directory" });
    expect(resolveConfig({}, S3).blobStore).toEqual({
      kind: "s3",
      endpoint: "http://127.0.0.1:9000",
      bucket: "episodes",
      region: "us-east-1",
      accessKeyId: "key",
      secretAccessKey: "secret",
      pathStyle: true,
    });
    expect(
      resolveConfig(
        {},
        {
          ...S3,
          GAUNTLET_S3_REGION: "eu-west-1",
          GAUNTLET_S3_PREFIX: "/prod/",
          GAUNTLET_S3_PATH_STYLE: "false",
        },
      ).blobStore,
    ).toMatchObject({ region: "eu-west-1", prefix: "/prod/", pathStyle: false });
  });

  it("names every missing or malformed setting", () => {
    expect(() => resolveConfig({}, { GAUNTLET_BLOB_STORE: "s3" })).toThrow(
      "GAUNTLET_BLOB_STORE=s3 needs GAUNTLET_S3_ENDPOINT, GAUNTLET_S3_BUCKET, GAUNTLET_S3_ACCESS_KEY_ID, GAUNTLET_S3_SECRET_ACCESS_KEY",
    );
    expect(() => resolveConfig({}, { ...S3, GAUNTLET_S3_ENDPOINT: "ftp://x" })).toThrow(
      'GAUNTLET_S3_ENDPOINT must be an http(s) address, not "ftp://x"',
    );
    expect(() => resolveConfig({}, { ...S3, GAUNTLET_S3_PATH_STYLE: "yes" })).toThrow(
      'GAUNTLET_S3_PATH_STYLE must be true or false, not "yes"',
    );
    expect(() => resolveConfig({}, { GAUNTLET_BLOB_STORE: "gcs" })).toThrow(
      'GAUNTLET_BLOB_STORE must be directory or s3, not "gcs"',
    );
  });
});

describe("the public address and trusted proxies", () => {
  it("normalise GAUNTLET_PUBLIC_URL and parse GAUNTLET_TRUSTED_PROXIES", () => {
    expect(resolveConfig({}, {})).toMatchObject({ publicUrl: undefined, trustedProxies: [] });
    const config = resolveConfig(
      {},
      {
        GAUNTLET_PUBLIC_URL: "https://Gauntlet.example.org/api/",
        GAUNTLET_TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1,::1, fd00::/8",
      },
    );
    expect(config.publicUrl).toBe("https://gauntlet.example.org/api");
    expect(config.trustedProxies).toEqual(["10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8"]);
  });

  it("refuse what they cannot use, naming the setting", () => {
    for (const bad of ["ftp://example.org", "https://example.org/?x=1", "not an address"])
      expect(() => resolveConfig({}, { GAUNTLET_PUBLIC_URL: bad })).toThrow("GAUNTLET_PUBLIC_URL");
    for (const bad of ["10.0.0.0/33", "example.org", "10.0.0.1/8/1"])
      expect(() => resolveConfig({}, { GAUNTLET_TRUSTED_PROXIES: bad })).toThrow(
        "GAUNTLET_TRUSTED_PROXIES",
      );
  });
});
