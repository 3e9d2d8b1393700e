export * from "./diagnostic";
export * from "./luma-error";
export * from "./render";
export * from "./source-position";
export * from "./span";
