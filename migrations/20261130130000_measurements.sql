-- Benchmark results attached to a scenario (fio, DiskSpd, elbencho), one row per run.
--
-- `revision` is the scenario revision that was current at upload, so a later edit of
-- the scenario does not silently change what a measurement was compared against.
-- `body` is the normalised Measurement JSON; `warnings` a JSON array of sentences
-- about what the importer skipped or assumed for the file the run came from.

CREATE TABLE measurements (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    scenario_id INTEGER NOT NULL REFERENCES scenarios (id) ON DELETE CASCADE,
    revision    INTEGER NOT NULL,
    format      TEXT    NOT NULL,
    label       TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    warnings    TEXT    NOT NULL DEFAULT '[]',
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE INDEX measurements_scenario ON measurements (scenario_id, id);
