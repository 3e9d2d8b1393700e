-- Seed of examples/data/shop.db, the SQLite file the datasource examples (050–059) read.
-- Rebuild it with:  bun -e 'import {Database} from "bun:sqlite"; const d = new Database("examples/data/shop.db"); d.exec(await Bun.file("examples/data/shop.sql").text()); d.close()'
-- (delete the old file first). The examples open it read-only (`?mode=ro`), so runs never change it.
CREATE TABLE customers (
  id      INTEGER PRIMARY KEY,
  name    TEXT NOT NULL,
  email   TEXT NOT NULL,
  tier    TEXT,               -- NULL: the schema's @default("basic") applies
  revenue REAL NOT NULL
);
CREATE TABLE orders (
  id          INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id),
  total       REAL NOT NULL,
  status      TEXT NOT NULL
);
INSERT INTO customers (id, name, email, tier, revenue) VALUES
  (1, 'Ada Lovelace',  'ada@example.com',   'gold',  12500.0),
  (2, 'Alan Turing',   'alan@example.com',  NULL,     4200.5),
  (3, 'Grace Hopper',  'grace@example.com', 'gold',   9800.0),
  (4, 'Edsger Dijkstra','edsger@example.com','basic',  1500.0),
  (5, 'Barbara Liskov','barbara.example.com',   'basic',   700.0);
INSERT INTO orders (id, customer_id, total, status) VALUES
  (1, 1, 2500.0, 'shipped'),
  (2, 1, 1200.0, 'open'),
  (3, 3,  800.0, 'shipped'),
  (4, 2,  420.5, 'cancelled'),
  (5, 4,  150.0, 'lost');
