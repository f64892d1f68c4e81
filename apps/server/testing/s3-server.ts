// A real S3-compatible server for tests (s3rver: the S3 REST protocol over HTTP, objects in a
// temporary directory), with a bucket and the store options that reach it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import S3rver from "s3rver";

import type { S3BlobStoreOptions } from "../src/blobs/s3-blob-store.ts";

export interface TestS3Server {
  endpoint: string;
  /** Options of a store on the server's bucket (s3rver takes any credentials). */
  options: S3BlobStoreOptions;
  close(): Promise<void>;
}

/** `address`: where it listens (other network namespaces reach it on a bridge's). */
export async function startS3Server(
  bucket = "gauntlet",
  address = "127.0.0.1",
): Promise<TestS3Server> {
  const dir = mkdtempSync(join(tmpdir(), "gauntlet-s3-"));
  const server = new S3rver({
    port: 0,
    address,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://${address}:${port}`;
  return {
    endpoint,
    options: {
      endpoint,
      bucket,
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      pathStyle: true,
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
