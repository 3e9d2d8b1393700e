/**
 * The schema compiler (spec §2–§4): Luma types → TypeBox → validation and JSON Schema.
 * `createSchemaTable` is the entry point; the annotation table is shared with the checker.
 */
export { createSchemaTable, toolInputName, queryInputName } from "./schema-table";
export { toJsonSchema } from "./json-schema";
export {
  ANNOTATIONS,
  FORMATS,
  SEVERITIES,
  annotationAppliesTo,
  annotationProblem,
  annotationSpec,
  typeCategory,
  type AnnotationSpec,
  type AnnotationArgKind,
  type TypeCategory,
} from "./annotations";
export type * from "./schema-table-types";
