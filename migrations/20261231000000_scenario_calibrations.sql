-- A scenario's calibration to its own measured runs: the model parameters that govern
-- its IO path (connections, client path, round trip) refitted to the runs, each with
-- the published fit's value it moved from. One row per scenario, replaced by each
-- refit; the published fit (catalog model.json) is never changed.
--
-- `parameters` is a JSON array of {"name", "about", "unit", "before", "after"};
-- `measurements` the number of runs the refit read.

CREATE TABLE scenario_calibrations (
    scenario_id  INTEGER PRIMARY KEY REFERENCES scenarios (id) ON DELETE CASCADE,
    parameters   TEXT    NOT NULL,
    measurements INTEGER NOT NULL,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
