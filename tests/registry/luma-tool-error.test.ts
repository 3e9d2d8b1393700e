import { describe, expect, test } from "bun:test";
import { LumaError } from "../../src/diagnostics/luma-error";
import { isLumaToolError, LUMA_TOOL_ERROR_BRAND, LumaToolError } from "../../src/luma-module";

describe("§9 typed errors thrown by handlers: LumaToolError", () => {
  test("new LumaToolError({ code, message, retryable, details }) is a runtime LumaError carrying them", () => {
    const e = new LumaToolError({ code: "DB_TIMEOUT", message: "Database timed out", retryable: true, details: { table: "t" } });
    expect(e).toBeInstanceOf(LumaError);
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ code: "DB_TIMEOUT", message: "Database timed out", retryable: true, details: { table: "t" }, phase: "runtime", name: "LumaToolError" });
    expect(e.toLine()).toBe("Error: [DB_TIMEOUT] Database timed out");
  });

  test("retryable defaults to false", () => {
    expect(new LumaToolError({ code: "X", message: "m" }).retryable).toBe(false);
  });

  test("detectable across module copies by its Symbol.for brand", () => {
    // What an instance from another copy of the module looks like: same global symbol, other class.
    const foreign = Object.assign(new Error("m"), { code: "X", retryable: false, [Symbol.for("luma.LumaToolError")]: true });
    expect(LUMA_TOOL_ERROR_BRAND as symbol).toBe(Symbol.for("luma.LumaToolError"));
    expect(isLumaToolError(foreign)).toBe(true);
    expect(foreign instanceof LumaToolError).toBe(true);
    expect(isLumaToolError(new Error("plain"))).toBe(false);
    expect(new Error("plain") instanceof LumaToolError).toBe(false);
  });

  test("a subclass keeps the ordinary instanceof check", () => {
    class DbError extends LumaToolError {}
    expect(new DbError({ code: "X", message: "m" }) instanceof DbError).toBe(true);
    expect(new LumaToolError({ code: "X", message: "m" }) instanceof DbError).toBe(false);
  });
});
