/** A bridge function a tool module exports under `datasources` (spec §12): `(sql, params, signal) => rows`. */
import type { DatasourceBridge } from "../tools/registry/registry-types";
import type { Bridge } from "./bridge";

export function moduleBridge(fn: DatasourceBridge): Bridge {
  return {
    origin: "module",
    secrets: [],
    run: (sql, params, signal) => fn(sql, params, signal),
    // The module owns its pool; Luma did not open it and does not close it.
    close: async () => {},
  };
}
