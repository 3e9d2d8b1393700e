/**
 * What a statement's SQL text holds, read without a database: how many statements, and
 * which parameter numbers its placeholders take. Startup uses it for the built-in bridges
 * (statement-text-check.ts): a second statement would be dropped by SQLite's prepare (or,
 * in Postgres' simple protocol, run unvalidated), and a `$2` with one parameter binds NULL.
 *
 * A small lexer, not a parser: it only has to know what is *not* code — quoted strings
 * (`'…'` with `''`; Postgres `E'…'` with backslash escapes and `$tag$…$tag$`), quoted
 * identifiers (`"…"`; SQLite's `` `…` `` and `[…]`), comments (`--`, `/* … *​/`, nested in
 * Postgres) — so a `;` or `$1` inside them counts for nothing. A `;` inside a SQLite
 * `CREATE TRIGGER … BEGIN … END` or a Postgres `BEGIN ATOMIC … END` body does not end the
 * statement: there, as in `sqlite3_complete`, only `; END ;` does.
 *
 * Placeholders, by dialect: Postgres numbers `$N` only (`?` is a jsonb operator there).
 * SQLite has `?`, `?N`, `$N` and named `:x` / `@x` / `$x`; as SQLite numbers them, `?`
 * takes one past the largest number so far and a new name likewise.
 */
export type SqlDialect = "sqlite" | "postgres";

export interface SqlScan {
  /** Statements with any code in them (a trailing `;` or comment makes none). */
  statements: number;
  /** Parameter number → the placeholder as written first (`$2`, `?`, `:name`). */
  placeholders: Map<number, string>;
}

const WORD = /[A-Za-z0-9_$\x80-\uffff]/;
const WORD_START = /[A-Za-z_\x80-\uffff]/;
const DOLLAR_TAG = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/;
const NAMED = /^[:@$][A-Za-z0-9_]+/;

/** Where the quoted run that opens at `i` with `q` ends (after its closing quote); doubled quotes escape. */
function skipQuoted(sql: string, i: number, close: string, backslash: boolean): number {
  for (let j = i + 1; j < sql.length; j++) {
    if (backslash && sql[j] === "\\") j++;
    else if (sql[j] === close) {
      if (sql[j + 1] === close && close !== "]") j++;
      else return j + 1;
    }
  }
  return sql.length;
}

function skipBlockComment(sql: string, i: number, nests: boolean): number {
  let depth = 0;
  for (let j = i; j < sql.length - 1; j++) {
    if (sql[j] === "/" && sql[j + 1] === "*") {
      if (depth === 0 || nests) depth++;
      j++;
    } else if (sql[j] === "*" && sql[j + 1] === "/") {
      depth--;
      j++;
      if (depth === 0) return j + 1;
    }
  }
  return sql.length;
}

/** Statement-level state: the words that open a body whose `;`s are inside it. */
class StatementState {
  words: string[] = [];
  /** Inside a trigger / atomic body: only `; END ;` ends the statement. */
  body = false;
  /** The last two significant tokens, for `; END ;`. */
  prev: string[] = [];
  hasCode = false;

  word(w: string, dialect: SqlDialect): void {
    const u = w.toUpperCase();
    if (this.words.length < 3) this.words.push(u);
    if (dialect === "sqlite" && this.words[0] === "CREATE" && (this.words[1] === "TRIGGER" || this.words[2] === "TRIGGER")) this.body = true;
    if (dialect === "postgres" && u === "ATOMIC" && this.prev[1] === "BEGIN") this.body = true;
    this.token(u);
  }

  token(t: string): void {
    this.hasCode = true;
    this.prev = [this.prev[1] ?? "", t];
  }

  /** A `;`: true when it ends the statement. */
  semicolon(): boolean {
    if (this.body && !(this.prev[1] === "END" && this.prev[0] === ";")) {
      this.token(";");
      return false;
    }
    return true;
  }
}

export function scanSql(sql: string, dialect: SqlDialect): SqlScan {
  const placeholders = new Map<number, string>();
  const names = new Map<string, number>();
  let largest = 0;
  const take = (n: number, text: string) => {
    if (!placeholders.has(n)) placeholders.set(n, text);
    largest = Math.max(largest, n);
  };
  let statements = 0;
  let st = new StatementState();
  const pg = dialect === "postgres";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const rest = sql.slice(i, i + 64);
    if (/\s/.test(c)) i++;
    else if (c === "-" && sql[i + 1] === "-") i = sql.indexOf("\n", i) < 0 ? sql.length : sql.indexOf("\n", i) + 1;
    else if (c === "/" && sql[i + 1] === "*") i = skipBlockComment(sql, i, pg);
    else if (c === "'") (i = skipQuoted(sql, i, "'", false)), st.token("'");
    else if (c === '"' || (!pg && c === "`")) (i = skipQuoted(sql, i, c, false)), st.token('"');
    else if (!pg && c === "[") (i = skipQuoted(sql, i, "]", false)), st.token('"');
    else if (pg && (c === "E" || c === "e") && sql[i + 1] === "'") (i = skipQuoted(sql, i + 1, "'", true)), st.token("'");
    else if (c === ";") {
      i++;
      if (st.semicolon()) {
        if (st.hasCode) statements++;
        st = new StatementState();
      }
    } else if (c === "$" && /\d/.test(sql[i + 1] ?? "")) {
      const digits = /^\$(\d+)/.exec(rest)![1];
      take(Number(digits), `$${digits}`);
      st.token("?");
      i += 1 + digits.length;
    } else if (pg && c === "$" && DOLLAR_TAG.test(rest)) {
      const tag = DOLLAR_TAG.exec(rest)![0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end < 0 ? sql.length : end + tag.length;
      st.token("'");
    } else if (!pg && c === "?") {
      const digits = /^\?(\d*)/.exec(rest)![1];
      take(digits === "" ? largest + 1 : Number(digits), `?${digits}`);
      st.token("?");
      i += 1 + digits.length;
    } else if (c === ":" && sql[i + 1] === ":") {
      // A cast (`x::int`), not a `:name` placeholder.
      st.token("::");
      i += 2;
    } else if (!pg && NAMED.test(rest)) {
      const name = NAMED.exec(rest)![0];
      if (!names.has(name)) names.set(name, largest + 1);
      take(names.get(name)!, name);
      st.token("?");
      i += name.length;
    } else if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < sql.length && WORD.test(sql[j])) j++;
      st.word(sql.slice(i, j), dialect);
      i = j;
    } else if (/\d/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[0-9A-Za-z_.]/.test(sql[j])) j++;
      st.token("0");
      i = j;
    } else {
      st.token(c);
      i++;
    }
  }
  if (st.hasCode) statements++;
  return { statements, placeholders };
}
