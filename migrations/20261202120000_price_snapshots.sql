-- Prices carried with every saved revision, and prices stored in the database.
--
-- Each revision keeps the price book it was priced with (its id and the date its
-- prices are valid as of) and the priced cost it was saved with (`cost`: JSON with the
-- region, currency, monthly total and every cost line), so that re-pricing compares
-- today's book against exactly what was saved. Revisions saved before this migration
-- keep NULL: they are re-priced from today's book and shown as "not stored".
ALTER TABLE scenario_revisions ADD COLUMN price_book_id TEXT;
ALTER TABLE scenario_revisions ADD COLUMN price_date TEXT;
ALTER TABLE scenario_revisions ADD COLUMN cost TEXT;

-- Prices that replace or add one row of the compiled price book: imported from Azure
-- Retail Prices API pages or entered by hand (a negotiated rate). Rows are only ever
-- added; the newest row of a (service, region, item) is the price in force. `price` is
-- USD per the item's unit as the book holds it (per GiB-month, MiB/s-month, GiB or
-- host-hour); `as_of` the date it is valid as of; `source` where it comes from.
CREATE TABLE price_overrides (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    service     TEXT    NOT NULL,
    region      TEXT    NOT NULL,
    item        TEXT    NOT NULL,
    price       REAL    NOT NULL,
    currency    TEXT    NOT NULL DEFAULT 'USD',
    region_name TEXT,
    as_of       TEXT    NOT NULL,
    source      TEXT    NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE INDEX price_overrides_row ON price_overrides (service, region, item, id);
