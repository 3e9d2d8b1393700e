/**
 * Spec §9 step 9: the idempotency fingerprint is the canonical JSON of the validated input.
 * Step 9 may defer writing it (claim-request.ts): these tests hold the deferred text to the
 * eager one, and show the memory store compares deferred fingerprints exactly as texts.
 */
import { describe, expect, test } from "bun:test";
import { canonicalJson } from "../../src/runtime/base/canonical-json";
import { PipelineClaimRequest } from "../../src/runtime/tools/steps/claim-request";
import { toolFingerprint } from "../../src/runtime/tools/steps/input-fingerprint";
import { MemoryIdempotencyStore } from "../../src/runtime/stores/memory-idempotency-store";
import { FakeClock } from "./fake-clock";
import { harness } from "./harness";

const PARAMS = ["request_id", "amount", "note", "flag"];
const fingerprint = toolFingerprint(PARAMS);

/** A request whose text is written from a snapshot, counting how often it is written. */
const deferred = (key: string, input: Record<string, unknown>) => {
  const writes = { count: 0 };
  const writer = { ...fingerprint, ofSnapshot: (s: object) => (writes.count++, fingerprint.ofSnapshot(s)) };
  const snapshot = fingerprint.snapshot(input);
  if (snapshot === undefined) throw new Error("expected a snapshot");
  return { req: new PipelineClaimRequest(key, undefined, snapshot, writer, 60_000, 30_000), writes };
};

describe("§9 step 9 fingerprint, deferred", () => {
  const primitives: [string, Record<string, unknown>][] = [
    ["plain scalars", { request_id: "r-1", amount: 25, note: "x", flag: true }],
    ["strings that need escaping", { request_id: 'q"uote\\back\nline\u0001', amount: -0, note: "é 😀", flag: false }],
    ["a lone surrogate and a null", { request_id: "\ud800x", amount: 1e21, note: null, flag: true }],
  ];
  for (const [name, input] of primitives) {
    test(`the text written later from the snapshot equals canonicalJson of the input: ${name}`, () => {
      const snapshot = fingerprint.snapshot(input)!;
      expect(fingerprint.ofSnapshot(snapshot)).toBe(canonicalJson(input));
      expect(fingerprint.write(input)).toBe(canonicalJson(input));
    });
  }

  test("the snapshot is a copy: changing the input afterwards does not change the text", () => {
    const input: Record<string, unknown> = { request_id: "r-1", amount: 1, note: "a", flag: true };
    const expected = canonicalJson(input);
    const snapshot = fingerprint.snapshot(input)!;
    input.amount = 2;
    input.note = "changed by the handler";
    expect(fingerprint.ofSnapshot(snapshot)).toBe(expected);
  });

  test("no snapshot when a value is an object or a parameter is absent: the text is written at once instead", () => {
    expect(fingerprint.snapshot({ request_id: "r", amount: 1, note: { a: 1 }, flag: true })).toBeUndefined();
    expect(fingerprint.snapshot({ request_id: "r", amount: 1, note: [1], flag: true })).toBeUndefined();
    expect(fingerprint.snapshot({ request_id: "r", amount: 1 })).toBeUndefined();
  });

  test("the memory store keeps a deferred request: a fresh key never writes the text; a later claim compares it", () => {
    const store = new MemoryIdempotencyStore(new FakeClock());
    const first = deferred("k", { request_id: "k", amount: 1, note: "a", flag: true });
    const claimed = store.claim(first.req);
    expect(claimed.kind).toBe("claimed");
    expect(first.writes.count).toBe(0);
    if (claimed.kind === "claimed") store.complete("k", claimed.token, "out", 60_000);

    const same = deferred("k", { flag: true, note: "a", amount: 1, request_id: "k" });
    expect(store.claim(same.req)).toEqual({ kind: "done", value: "out" });
    const other = deferred("k", { request_id: "k", amount: 2, note: "a", flag: true });
    expect(store.claim(other.req)).toEqual({ kind: "conflict", running: false });
    // A plain text request with the same canonical input also replays.
    expect(store.claim({ key: "k", fingerprint: fingerprint.write({ request_id: "k", amount: 1, note: "a", flag: true }), ttlMs: 1, leaseMs: 1 })).toEqual({
      kind: "done",
      value: "out",
    });
    expect(first.writes.count).toBe(1); // written once, when first compared
  });
});

describe("§9 step 9 through the pipeline: a handler that changes its input after the claim", () => {
  const SOURCE = `
schema R { n: int }
tool pay(request_id: string, amount: int) -> R { side_effects: "write"  idempotent: true  idempotency_key: request_id }
`;
  test("the replay compares the input as it was claimed, not as the handler left it", async () => {
    let runs = 0;
    const h = harness(SOURCE, {
      handlers: {
        pay: (i: { amount: number }) => {
          runs++;
          i.amount = 999; // a handler may scribble on its input object
          return { n: runs };
        },
      },
    });
    expect(await h.call("pay", { request_id: "r1", amount: 5 })).toEqual({ n: 1 });
    expect(await h.call("pay", { request_id: "r1", amount: 5 })).toEqual({ n: 1 }); // replayed
    await expect(h.call("pay", { request_id: "r1", amount: 999 })).rejects.toMatchObject({ code: "TOOL_IDEMPOTENCY_CONFLICT" });
    expect(runs).toBe(1);
  });
});
