/**
 * The diagnostic code of every check message (E02xx), one table per builder group of
 * `messages.ts`. A code is the message's identity for `luma explain`, editors and CI: it
 * never changes meaning, even when the wording does. Explanations live in the catalog
 * (`src/diagnostics/catalog/check-codes.ts`); a test keeps the two in step.
 *
 * The tables are typed over the builders, so a new message without a code does not
 * compile.
 */
import type { exactText, messageText } from "./messages";

export const EXACT_CODES: Record<keyof typeof exactText, string> = {
  writeToolCache: "E0225",
  writeToolRetries: "E0226",
  idempotentNeedsKey: "E0227",
  toolTimeoutPositive: "E0228",
  usingToolNotAllowed: "E0249",
  directToolNotAllowed: "E0250",
};

export const MESSAGE_CODES: Record<keyof typeof messageText, string> = {
  duplicateDecl: "E0201",
  duplicateName: "E0202",
  duplicateMember: "E0203",
  unknownSchema: "E0204",
  wrongKind: "E0205",
  unionMemberNotPlain: "E0206",
  unionTagClash: "E0207",
  recursiveSchema: "E0208",
  unknownAnnotation: "E0209",
  annotationWrongType: "E0210",
  annotationArity: "E0211",
  annotationArgType: "E0212",
  annotationValues: "E0213",
  annotationBounds: "E0214",
  annotationBadRegex: "E0215",
  defaultMismatch: "E0216",
  duplicateAnnotation: "E0217",
  unknownKey: "E0218",
  missingKey: "E0219",
  keyValue: "E0220",
  baseUrlRequired: "E0221",
  responsesApiProvider: "E0290",
  toolReturn: "E0222",
  needsType: "E0223",
  idempotencyKeyPath: "E0224",
  queryReturn: "E0229",
  commandReturn: "E0230",
  datasourceUrlTwice: "E0231",
  datasourceUrlScheme: "E0232",
  unknownName: "E0233",
  unknownTool: "E0234",
  unknownModel: "E0235",
  unknownDatasource: "E0236",
  unknownDb: "E0237",
  unknownFunction: "E0238",
  unknownMethod: "E0239",
  unknownAgent: "E0240",
  notCallable: "E0241",
  arity: "E0242",
  returnOutsideFn: "E0243",
  numberOutOfRange: "E0244",
  severityWithoutRules: "E0245",
  askOutsideAgent: "E0246",
  askWithoutModel: "E0247",
  toolNameTooLong: "E0248",
  integerNotExact: "E0251",
  returnValueOnNextLine: "E0252",
  functionValue: "E0253",
  jumpOutsideLoop: "E0261",
};
