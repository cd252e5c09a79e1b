-- Who saved each revision, who owns each scenario and who may see it, and the
-- activity log.
--
-- `author` is the signed-in user who saved the revision (NULL in single-user mode).
-- A scenario's `owner` is the user who created it (NULL in single-user mode);
-- `visibility` is `shared` (every user sees it) or `private` (its owner and admins).
ALTER TABLE scenario_revisions ADD COLUMN author TEXT;
ALTER TABLE estate_revisions ADD COLUMN author TEXT;
ALTER TABLE scenarios ADD COLUMN owner TEXT;
ALTER TABLE scenarios ADD COLUMN visibility TEXT NOT NULL DEFAULT 'shared';

-- The list filters on owner and visibility: keep its index covering.
DROP INDEX IF EXISTS scenarios_list;
CREATE INDEX scenarios_list
    ON scenarios (touched DESC, id, name, service, level, updated_at, revision, binding,
                  owner, visibility);

-- One row per change, written in the transaction of the change it records.
-- `object_kind` is scenario, estate, measurement or prices; `scenario_id` the
-- scenario the object belongs to (for scenario and measurement events), so a change
-- of visibility reaches its events. `owner` and `private` copy the scenario's
-- owner and visibility: the events of a private scenario are seen by the same users
-- as the scenario, also after it was deleted.
CREATE TABLE activity (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          TEXT    NOT NULL,
    actor       TEXT,
    action      TEXT    NOT NULL,
    object_kind TEXT    NOT NULL,
    object_id   INTEGER,
    scenario_id INTEGER,
    revision    INTEGER,
    summary     TEXT    NOT NULL,
    owner       TEXT,
    private     INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX activity_scenario ON activity (scenario_id);
