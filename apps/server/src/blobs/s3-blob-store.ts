// The blob store on an S3-compatible service (AWS S3, MinIO, Ceph, R2, …): the same
// content-addressed keys as the directory store (`sha256/ab/cd/<hash>` under an optional
// prefix), requests signed with SigV4 by aws4fetch. It also hands out presigned PUT addresses,
// so a bulk-upload file goes straight to the bucket instead of through the server.
import { createHash } from "node:crypto";

import { AwsClient } from "aws4fetch";

import type { BlobStore, StoredBlob } from "./blob-store.ts";

export interface S3BlobStoreOptions {
  /** The service's base address, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Keys under this prefix (no leading or trailing slash); none by default. */
  prefix?: string;
  /** `endpoint/bucket/key` (path style, most self-hosted services) or `bucket.endpoint/key`. Default true. */
  pathStyle?: boolean;
}

const HASH = /^[0-9a-f]{64}$/;

export class S3BlobStore implements BlobStore {
  readonly #client: AwsClient;
  readonly #bucketUrl: string;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(options: S3BlobStoreOptions) {
    // Few retries: a caller waiting on an upload hears of a dead service within seconds.
    this.#client = new AwsClient({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      region: options.region,
      service: "s3",
      retries: 2,
    });
    const endpoint = new URL(options.endpoint);
    const base = endpoint.href.replace(/\/+$/, "");
    this.#bucketUrl =
      options.pathStyle === false
        ? `${endpoint.protocol}//${options.bucket}.${endpoint.host}`
        : `${base}/${options.bucket}`;
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ? `${options.prefix.replace(/^\/+|\/+$/g, "")}/` : "";
  }

  #blobKey(sha256: string): string {
    if (!HASH.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return `sha256/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  }

  #url(key: string): string {
    return `${this.#bucketUrl}/${this.#prefix}${key.split("/").map(encodeURIComponent).join("/")}`;
  }

  async #send(method: "GET" | "HEAD" | "PUT", key: string, body?: Uint8Array): Promise<Response> {
    const res = await this.#client.fetch(this.#url(key), {
      method,
      ...(body ? { body, headers: { "content-length": String(body.byteLength) } } : {}),
    });
    // A missing object is an answer to a read; to a write (no such bucket) it is a failure.
    if (res.ok || (res.status === 404 && method !== "PUT")) return res;
    const detail = (await res.text()).slice(0, 300);
    throw new Error(
      `the S3 store answered ${method} ${this.#prefix}${key} with ${res.status}${detail ? `: ${detail}` : ""}`,
    );
  }

  async put(bytes: Uint8Array): Promise<StoredBlob> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    if (!(await this.has(sha256))) await this.#send("PUT", this.#blobKey(sha256), bytes);
    return { sha256, size: bytes.byteLength };
  }

  async get(sha256: string): Promise<Buffer | null> {
    return this.#read(this.#blobKey(sha256));
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.#send("HEAD", this.#blobKey(sha256))).status !== 404;
  }

  uri(sha256: string): string {
    return `s3://${this.#bucket}/${this.#prefix}${this.#blobKey(sha256)}`;
  }

  async presignPut(key: string, expiresSeconds: number): Promise<string> {
    const url = new URL(this.#url(key));
    url.searchParams.set("X-Amz-Expires", String(expiresSeconds));
    return (await this.#client.sign(url.href, { method: "PUT", aws: { signQuery: true } })).url;
  }

  async readUpload(key: string): Promise<Buffer | null> {
    return this.#read(key);
  }

  async #read(key: string): Promise<Buffer | null> {
    const res = await this.#send("GET", key);
    if (res.status === 404) return null;
    return Buffer.from(await res.arrayBuffer());
  }
}
