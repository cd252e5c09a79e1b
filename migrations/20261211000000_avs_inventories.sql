-- Imported VMware inventories (the AVS page plans them), one row per upload.
--
-- `body` is the Inventory JSON as the import gave it (names already anonymised when
-- that was asked for); `origin` the uploaded file's name.

CREATE TABLE avs_inventories (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    origin     TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
