import { describe, expect, test } from "bun:test";
import { readOtlpConfig } from "../../src/runtime/telemetry/otel/otlp-config";
import { flushBeforeExit, onExitFlush } from "../../src/runtime/telemetry/exit-flush";
import { REPO, runLuma } from "../support/luma-binary";

describe("§14 telemetry — the standard OTEL_* variables", () => {
  test("endpoint + /v1/traces, or the traces endpoint as given; traces-only variables win; headers percent-decoded", () => {
    const warns: string[] = [];
    const c = readOtlpConfig(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: "https://user:pw@collector:4318/",
        OTEL_EXPORTER_OTLP_HEADERS: "a=1,b=x%20y",
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: "b=2",
        OTEL_EXPORTER_OTLP_TIMEOUT: "2500",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.name=from-resource",
      },
      (l) => warns.push(l),
    );
    expect(c).toMatchObject({ url: "https://user:pw@collector:4318/v1/traces", label: "https://collector:4318/v1/traces", protocol: "http/protobuf", headers: { a: "1", b: "2" }, timeoutMs: 2500, serviceName: "from-resource", captureContent: false });
    expect(readOtlpConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b/x" }, () => {}).url).toBe("http://b/x");
    expect(warns).toEqual([]);
  });

  test("OTEL_BSP_SCHEDULE_DELAY: how long a finished span waits for its batch; 1000 ms unless a number ≥ 0 is given", () => {
    const delay = (v?: string) => readOtlpConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a", OTEL_BSP_SCHEDULE_DELAY: v }, () => {}).scheduleDelayMs;
    expect([delay(), delay("250"), delay("0"), delay("soon"), delay("-5"), delay("")]).toEqual([1000, 250, 0, 1000, 1000, 1000]);
  });

  test("grpc is not spoken: http/protobuf with a warning", () => {
    const warns: string[] = [];
    expect(readOtlpConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, (l) => warns.push(l)).protocol).toBe("http/protobuf");
    expect(warns).toEqual(["warning: OTLP protocol 'grpc' is not supported; spans are sent as http/protobuf"]);
  });

  test("OTEL_SDK_DISABLED=true exports nothing (no connection is even tried: no warning for a dead endpoint)", () => {
    const r = runLuma(["examples/041_multi_tool_worker.luma", "--replay", "examples/cassettes/041_multi_tool_worker.jsonl"], {
      cwd: REPO,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_SDK_DISABLED: "true" },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
  });

  test("flushBeforeExit runs every registered flush (for exits that skip the run's finally), and survives a failing one", async () => {
    const ran: string[] = [];
    const off = onExitFlush(async () => void ran.push("a"));
    onExitFlush(async () => {
      throw new Error("collector down");
    });
    await flushBeforeExit();
    off();
    await flushBeforeExit();
    expect(ran).toEqual(["a"]);
  });
});
