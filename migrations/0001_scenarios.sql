-- Saved scenarios and their full revision history.
--
-- `scenarios` holds the current state of each scenario (denormalised name,
-- service and level for the list page); `scenario_revisions` keeps every
-- saved version, so nothing is ever overwritten. A restore copies an old
-- revision into a new one.

CREATE TABLE scenarios (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL,
    service     TEXT    NOT NULL,
    level       TEXT    NOT NULL,
    -- Number of the newest revision (1 after the first save).
    revision    INTEGER NOT NULL,
    -- Scenario JSON of the newest revision, without the id.
    body        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    -- Monotonic write counter: orders the list newest first even within one second.
    touched     INTEGER NOT NULL
);

CREATE INDEX scenarios_touched ON scenarios (touched DESC);

CREATE TABLE scenario_revisions (
    scenario_id INTEGER NOT NULL REFERENCES scenarios (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (scenario_id, number)
) WITHOUT ROWID;
