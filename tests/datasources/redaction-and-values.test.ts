import { describe, expect, test } from "bun:test";
import { redactSecrets } from "../../src/diagnostics/redact-secrets";
import { readUrlSetting } from "../../src/config/url-setting";
import { plainValue } from "../../src/runtime/datasources/row-values";
import { parseDatasourceUrl } from "../../src/runtime/datasources/datasource-url";

const NO_FAILURES = { absent: () => new Error("absent"), envUnset: (v: string) => new Error(`unset ${v}`) };

describe("§12/§14 credentials in URLs are never printed", () => {
  test("user:password@ in any URL of a message is redacted", () => {
    expect(redactSecrets("connect postgres://admin:hunter2@db:5432/x failed; retry postgresql://u@h/y")).toBe(
      "connect postgres://***@db:5432/x failed; retry postgresql://***@h/y",
    );
  });

  test("a known secret (a password, a URL from url_env) is blanked wherever it appears", () => {
    expect(redactSecrets("auth failed for password hunter2 (hunter2)", ["hunter2"])).toBe("auth failed for password *** (***)");
  });

  // The secrets moved from the parsed target to the URL setting (src/config/url-setting.ts),
  // which hands them to the bridge; the password is still known raw and percent-decoded.
  test("a Postgres URL's password is known to its bridge raw and percent-decoded", () => {
    const t = parseDatasourceUrl("postgres://u:p%40ss%3Aw0rd@h:5432/db", "/");
    expect(t).toEqual({ kind: "postgres", url: "postgres://u:p%40ss%3Aw0rd@h:5432/db" });
    const setting = readUrlSetting({ url: "postgres://u:p%40ss%3Aw0rd@h:5432/db" }, {}, NO_FAILURES);
    expect(setting.secrets).toEqual(["postgres://u:p%40ss%3Aw0rd@h:5432/db", "p%40ss%3Aw0rd", "p@ss:w0rd"]);
  });

  test("a password whose percent-escape does not decode is still a secret, raw (regression)", () => {
    const url = "postgres://u:100%zz-pw@h:5432/db";
    expect(readUrlSetting({ url }, {}, NO_FAILURES).secrets).toEqual([url, "100%zz-pw"]);
    expect(redactSecrets("auth failed: 100%zz-pw rejected", readUrlSetting({ url }, {}, NO_FAILURES).secrets)).toBe("auth failed: *** rejected");
  });
});

describe("§12 built-in URLs", () => {
  test("sqlite:PATH is relative to the program's directory; sqlite://, ?mode=ro and ?mode=rwc are understood", () => {
    expect(parseDatasourceUrl("sqlite:data/shop.db", "/proj")).toEqual({ kind: "sqlite", path: "/proj/data/shop.db", readonly: false, create: false });
    expect(parseDatasourceUrl("sqlite:///abs/x.db?mode=ro", "/proj")).toEqual({ kind: "sqlite", path: "/abs/x.db", readonly: true, create: false });
    expect(parseDatasourceUrl("sqlite:new.db?mode=rwc", "/proj")).toEqual({ kind: "sqlite", path: "/proj/new.db", readonly: false, create: true });
    expect(parseDatasourceUrl("sqlite::memory:", "/proj")).toEqual({ kind: "sqlite", path: ":memory:", readonly: false, create: false });
  });

  test("other schemes are not built-in", () => {
    expect(parseDatasourceUrl("mysql://u:p@h/db", "/")).toBeUndefined();
    expect(parseDatasourceUrl("sqlite:", "/")).toBeUndefined();
  });
});

describe("§12 driver values become Luma values before validation", () => {
  test("bigint → number (digits when unsafe), Date → ISO string, bytes → base64, typed arrays → arrays", () => {
    expect(
      plainValue({
        n: 5n,
        huge: 9007199254740993n,
        at: new Date(Date.UTC(2024, 0, 2)),
        blob: new Uint8Array([104, 105]),
        ints: new Int32Array([1, 2]),
        nested: [{ d: new Date(0) }],
        gone: undefined,
      }),
    ).toEqual({
      n: 5,
      huge: "9007199254740993",
      at: "2024-01-02T00:00:00.000Z",
      blob: "aGk=",
      ints: [1, 2],
      nested: [{ d: "1970-01-01T00:00:00.000Z" }],
    });
  });
});
