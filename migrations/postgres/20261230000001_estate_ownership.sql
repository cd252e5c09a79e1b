-- Who owns each estate and who may see it, as for scenarios: `owner` is the user who
-- created it (NULL in single-user mode), `visibility` is `shared` (every user sees it)
-- or `private` (its owner and admins). `holds_private` is 1 once the inputs of a
-- private scenario were added: such an estate stays private.
ALTER TABLE estates ADD COLUMN owner TEXT;
ALTER TABLE estates ADD COLUMN visibility TEXT NOT NULL DEFAULT 'shared';
ALTER TABLE estates ADD COLUMN holds_private BIGINT NOT NULL DEFAULT 0;

-- Estates saved before they had owners: the first user who saved a revision owns it.
-- One saved with accounts may hold a private scenario's inputs, which cannot be told
-- now: it becomes private, and its owner can share it again.
UPDATE estates SET owner = (
    SELECT author FROM estate_revisions
    WHERE estate_id = estates.id AND author IS NOT NULL
    ORDER BY number LIMIT 1
);
UPDATE estates SET visibility = 'private' WHERE owner IS NOT NULL;

-- Their log events follow them, as a change of visibility makes them.
UPDATE activity
SET private = 1,
    owner = (SELECT owner FROM estates WHERE estates.id = activity.object_id)
WHERE object_kind = 'estate'
  AND object_id IN (SELECT id FROM estates WHERE visibility = 'private');
