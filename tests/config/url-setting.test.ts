import { describe, expect, test } from "bun:test";
import { readUrlSetting, shownUrl } from "../../src/config/url-setting";

const FAIL = { absent: () => new Error("absent"), envUnset: (variable: string) => new Error(`unset: ${variable}`) };

describe("§12/§10 a connection URL from `url` or `url_env` (datasources, network stores)", () => {
  test("url_env: the variable's value, trimmed; the variable is named", () => {
    const s = readUrlSetting({ url_env: "DB_URL" }, { DB_URL: "  postgres://app:pw0rd@db:5432/shop?sslmode=require \n" }, FAIL);
    expect(s).toEqual({
      url: "postgres://app:pw0rd@db:5432/shop?sslmode=require",
      shown: "postgres://db:5432/shop",
      secrets: ["postgres://app:pw0rd@db:5432/shop?sslmode=require", "pw0rd"],
      variable: "DB_URL",
    });
  });

  test("url: as written, no variable", () => {
    expect(readUrlSetting({ url: "sqlite:data/shop.db" }, {}, FAIL)).toEqual({ url: "sqlite:data/shop.db", shown: "sqlite:data/shop.db", secrets: ["sqlite:data/shop.db"], variable: undefined });
  });

  test("an unset or blank variable, and no setting at all, are the caller's errors", () => {
    expect(() => readUrlSetting({ url_env: "NOPE" }, {}, FAIL)).toThrow("unset: NOPE");
    expect(() => readUrlSetting({ url_env: "BLANK" }, { BLANK: " \n" }, FAIL)).toThrow("unset: BLANK");
    expect(() => readUrlSetting({}, {}, FAIL)).toThrow("absent");
  });

  test("the shown form never holds credentials, a query or a fragment", () => {
    expect(shownUrl("redis://:s3cret@127.0.0.1:6379/0")).toBe("redis://127.0.0.1:6379/0");
    expect(shownUrl("postgres://u:p@h/")).toBe("postgres://h");
    expect(shownUrl("https://user:tok@proxy.local/v1#x")).toBe("https://proxy.local/v1");
    expect(shownUrl("no url at all")).toBe("(not a URL)");
  });
});
