-- Saved estates (several workloads planned together) and their revision history.
--
-- `estates` holds the newest revision of each estate; `estate_revisions` keeps
-- every saved version (the estate request JSON), so nothing is overwritten.

CREATE TABLE estates (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL,
    -- Number of workloads in the newest revision (for the list page).
    workloads   INTEGER NOT NULL,
    revision    INTEGER NOT NULL,
    body        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    touched     INTEGER NOT NULL
);

CREATE INDEX estates_touched ON estates (touched DESC);

CREATE TABLE estate_revisions (
    estate_id   INTEGER NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (estate_id, number)
) WITHOUT ROWID;
