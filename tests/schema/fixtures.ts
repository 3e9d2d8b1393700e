/** The spec's own examples (§3, §4), built as AST, shared by the schema tests. */
import { ann, field, program, query, schema, t, tool, union } from "./build-ast";

export const specProgram = () =>
  program(
    schema("CalcResult", field("result", t.float)),
    schema(
      "Answer",
      field("summary", t.string, ann("desc", "One sentence"), ann("length", 1, 280)),
      field("score", t.int, ann("range", 0, 10), ann("severity", "soft")),
      field("tags?", t.array(t.string), ann("items", 0, 5)),
      field("lang?", t.enum("en", "tr"), ann("default", "en")),
    ),
    schema("Invoice", field("invoice_number", t.string)),
    schema("Receipt", field("reference", t.string)),
    union("Document", ["Invoice", "Receipt"], "kind"),
    tool(
      "calculate",
      [
        field("a", t.float, ann("range", 0, 1000000)),
        field("b", t.float, ann("range", 0, 1000000)),
        field("operation", t.enum("add", "multiply"), ann("desc", "Operation to perform")),
        field("limit?", t.int, ann("default", 10)),
      ],
      t.named("CalcResult"),
    ),
    tool("classify", [field("text", t.string)], t.named("Document")),
    tool("file_doc", [field("doc", t.named("Document")), field("docs?", t.array(t.named("Document")))], t.named("Document")),
    schema("Customer", field("id", t.int), field("name", t.string), field("tier?", t.enum("basic", "gold"), ann("default", "basic"))),
    query("Query", "top_customers", [field("limit", t.int, ann("default", 10))], t.array(t.named("Customer"))),
    query("Command", "add_customer", [field("name", t.string)], t.named("Customer")),
  );
