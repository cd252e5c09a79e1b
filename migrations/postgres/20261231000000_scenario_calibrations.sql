-- PostgreSQL twin of ../20261231000000_scenario_calibrations.sql (same version, same schema).
-- A scenario's calibration to its own measured runs: the model parameters that govern
-- its IO path (connections, client path, round trip) refitted to the runs, each with
-- the published fit's value it moved from. One row per scenario, replaced by each
-- refit; the published fit (catalog model.json) is never changed.
--
-- `parameters` is a JSON array of {"name", "about", "unit", "before", "after"};
-- `measurements` the number of runs the refit read.

CREATE TABLE scenario_calibrations (
    scenario_id  BIGINT  PRIMARY KEY REFERENCES scenarios (id) ON DELETE CASCADE,
    parameters   TEXT    NOT NULL,
    measurements BIGINT  NOT NULL,
    created_at   TEXT    NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
);
