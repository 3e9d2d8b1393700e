/** Spec §3 "Tagged unions": JSON Schema, input tagging, the exact output message. */
import { describe, expect, test } from "bun:test";
import { createSchemaTable } from "../../src/schema/schema-table";
import { toJsonSchema } from "../../src/schema/json-schema";
import { runtimeError } from "../../src/diagnostics/luma-error";
import { ann, field, program, schema, t, tool, union } from "./build-ast";
import { specProgram } from "./fixtures";

const table = createSchemaTable(specProgram());
const fileDoc = (value: unknown) => table.validate({ toolInput: "file_doc" }, value, "input", "file_doc.input");
const classifyOut = (value: unknown) => table.validate({ schema: "Document" }, value, "output", "classify.output");

describe("§3 Tagged unions", () => {
  test("'The JSON Schema is anyOf of the members, each with kind as a const property'", () => {
    expect(toJsonSchema(table.named("Document")!)).toEqual({
      anyOf: [
        {
          type: "object",
          additionalProperties: false,
          required: ["kind", "invoice_number"],
          properties: { kind: { type: "string", const: "Invoice" }, invoice_number: { type: "string" } },
        },
        {
          type: "object",
          additionalProperties: false,
          required: ["kind", "reference"],
          properties: { kind: { type: "string", const: "Receipt" }, reference: { type: "string" } },
        },
      ],
    });
  });

  test("as input, 'the runtime determines the member and writes the discriminator' — on a copy", () => {
    const given = { doc: { reference: "R-1" } };
    const r = fileDoc(given);
    expect(r).toEqual({ ok: true, value: { doc: { kind: "Receipt", reference: "R-1" } }, hard: [], soft: [] });
    expect(given).toEqual({ doc: { reference: "R-1" } });
  });

  test("an input that already carries a valid tag keeps it", () => {
    expect(fileDoc({ doc: { kind: "Invoice", invoice_number: "7" } }).value).toEqual({ doc: { kind: "Invoice", invoice_number: "7" } });
  });

  test("a tagged input is checked against the member its tag names", () => {
    expect(fileDoc({ doc: { kind: "Invoice", reference: "R-1" } }).hard.map((i) => [i.path, i.rule])).toEqual([
      ["file_doc.input.doc.invoice_number", "required"],
      ["file_doc.input.doc.reference", "unknown field"],
    ]);
  });

  test("'An input matching no member' is a hard issue", () => {
    const r = fileDoc({ doc: { title: "?" } });
    expect(r.ok).toBe(false);
    expect(r.hard).toEqual([
      {
        path: "file_doc.input.doc",
        rule: "tag",
        message: "file_doc.input.doc must match a member of Document: Invoice, Receipt (tag).",
        severity: "hard",
      },
    ]);
  });

  test("an input matching 'more than one, without a tag' is a hard issue", () => {
    const tbl = createSchemaTable(
      program(
        schema("Cat", field("name", t.string)),
        schema("Dog", field("name", t.string), field("good?", t.bool, ann("default", true))),
        union("Pet", ["Cat", "Dog"], "species"),
        tool("adopt", [field("pet", t.named("Pet"))], t.named("Pet")),
      ),
    );
    const r = tbl.validate({ toolInput: "adopt" }, { pet: { name: "Rex" } }, "input", "adopt.input");
    expect(r.hard).toEqual([
      {
        path: "adopt.input.pet",
        rule: "tag",
        message: "adopt.input.pet matches more than one member of Pet: Cat, Dog; set 'species' to choose (tag).",
        severity: "hard",
      },
    ]);
    // With the tag the choice is made, and the chosen member's defaults are filled.
    expect(tbl.validate({ toolInput: "adopt" }, { pet: { species: "Dog", name: "Rex" } }, "input", "adopt.input").value).toEqual({
      pet: { species: "Dog", name: "Rex", good: true },
    });
  });

  test("an input whose tag names no member gets the tag message", () => {
    expect(fileDoc({ doc: { kind: "Memo", reference: "x" } }).hard[0].message).toBe(
      "file_doc.input.doc.kind must identify a tagged union member.",
    );
  });

  test("as output, bare member fields are rejected, *exact*", () => {
    const r = classifyOut({ invoice_number: "INV-1" });
    expect(r.ok).toBe(false);
    expect(r.hard).toEqual([
      { path: "classify.output.kind", rule: "tag", message: "classify.output.kind must identify a tagged union member.", severity: "hard" },
    ]);
    expect(runtimeError("TOOL_OUTPUT_INVALID", r.hard[0].message).toLine()).toBe(
      "Error: [TOOL_OUTPUT_INVALID] classify.output.kind must identify a tagged union member.",
    );
    expect(r.value).toEqual({ invoice_number: "INV-1" });
  });

  test("as output, a wrong tag is the same message, and a valid tag is checked against its member", () => {
    expect(classifyOut({ kind: "Memo", invoice_number: "1" }).hard[0].message).toBe("classify.output.kind must identify a tagged union member.");
    expect(classifyOut({ kind: "Invoice", invoice_number: "1" })).toEqual({
      ok: true,
      value: { kind: "Invoice", invoice_number: "1" },
      hard: [],
      soft: [],
    });
    expect(classifyOut({ kind: "Receipt", invoice_number: "1" }).hard.map((i) => i.path)).toEqual([
      "classify.output.reference",
      "classify.output.invoice_number",
    ]);
  });

  test("unions nested in arrays: each item is tagged on input, and named by index on output", () => {
    const r = fileDoc({ doc: { reference: "a" }, docs: [{ invoice_number: "1" }, { kind: "Receipt", reference: "b" }] });
    expect(r.value).toEqual({
      doc: { kind: "Receipt", reference: "a" },
      docs: [
        { kind: "Invoice", invoice_number: "1" },
        { kind: "Receipt", reference: "b" },
      ],
    });
    const out = table.validate(
      { toolInput: "file_doc" },
      { doc: { kind: "Receipt", reference: "a" }, docs: [{ kind: "Invoice", invoice_number: "1" }, { reference: "b" }] },
      "output",
      "x",
    );
    expect(out.hard.map((i) => i.message)).toEqual(["x.docs[1].kind must identify a tagged union member."]);
  });

  test("a union member with its own nested union is tagged all the way down on input", () => {
    const tbl = createSchemaTable(
      program(
        schema("Invoice", field("invoice_number", t.string)),
        schema("Receipt", field("reference", t.string)),
        union("Document", ["Invoice", "Receipt"], "kind"),
        schema("Envelope", field("doc", t.named("Document"))),
        schema("Letter", field("text", t.string)),
        union("Mail", ["Envelope", "Letter"], "type"),
      ),
    );
    const r = tbl.validate({ schema: "Mail" }, { doc: { invoice_number: "1" } }, "input", "m");
    expect(r).toEqual({ ok: true, value: { type: "Envelope", doc: { kind: "Invoice", invoice_number: "1" } }, hard: [], soft: [] });
  });

  test("a non-object where a union is expected is a type issue", () => {
    expect(classifyOut("Invoice").hard[0].message).toBe("classify.output must be an object, got string (type).");
  });
});
