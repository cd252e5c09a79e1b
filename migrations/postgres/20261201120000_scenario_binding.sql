-- PostgreSQL twin of ../20261201120000_scenario_binding.sql (same version, same schema).
-- The binding limit of each scenario's newest revision, as the list shows it (its
-- label, or why it cannot be evaluated), written at every save so the list needs no
-- evaluation per row. NULL for rows saved before this column: the list computes those
-- once and writes them back.
ALTER TABLE scenarios ADD COLUMN binding TEXT;

-- The list reads only these columns, newest first: a covering index serves a page and
-- its total count without touching the scenario bodies.
CREATE INDEX scenarios_list
    ON scenarios (touched DESC, id, name, service, level, updated_at, revision, binding);
