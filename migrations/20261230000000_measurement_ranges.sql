-- Runs stored before their figures were checked: an overflow in the result file was
-- stored as null (which cannot be read back) or as a figure beyond any real system
-- (1e308 IOPS), which no chart can draw. The importer now refuses such files
-- (src/engine/import/ranges.rs, whose ranges these are); the runs stored from them
-- are removed.
DELETE FROM measurements
WHERE CASE WHEN json_valid(body) THEN
        coalesce(json_type(body, '$.iops'), 'null') NOT IN ('integer', 'real')
        OR json_extract(body, '$.iops') NOT BETWEEN 0 AND 1e9
        OR coalesce(json_type(body, '$.read_iops'), 'null') NOT IN ('integer', 'real')
        OR json_extract(body, '$.read_iops') NOT BETWEEN 0 AND 1e9
        OR coalesce(json_type(body, '$.write_iops'), 'null') NOT IN ('integer', 'real')
        OR json_extract(body, '$.write_iops') NOT BETWEEN 0 AND 1e9
        OR coalesce(json_type(body, '$.mibps'), 'null') NOT IN ('integer', 'real')
        OR json_extract(body, '$.mibps') NOT BETWEEN 0 AND 1e8
        OR coalesce(json_type(body, '$.read_mibps'), 'null') NOT IN ('integer', 'real')
        OR json_extract(body, '$.read_mibps') NOT BETWEEN 0 AND 1e8
        OR coalesce(json_type(body, '$.write_mibps'), 'null') NOT IN ('integer', 'real')
        OR json_extract(body, '$.write_mibps') NOT BETWEEN 0 AND 1e8
        OR coalesce(json_type(body, '$.read_pct'), 'null') NOT IN ('integer', 'real')
        OR json_extract(body, '$.read_pct') NOT BETWEEN 0 AND 100
        OR coalesce(json_type(body, '$.io_size_kib'), 'null') NOT IN ('integer', 'real')
        OR json_extract(body, '$.io_size_kib') NOT BETWEEN 0 AND 1048576
        OR coalesce(json_type(body, '$.runtime_s'), 'null') NOT IN ('integer', 'real')
        OR json_extract(body, '$.runtime_s') NOT BETWEEN 0 AND 1e8
        OR (json_type(body, '$.latency_mean_ms') IN ('integer', 'real')
            AND json_extract(body, '$.latency_mean_ms') NOT BETWEEN 0 AND 3.6e6)
        OR (json_type(body, '$.latency_p50_ms') IN ('integer', 'real')
            AND json_extract(body, '$.latency_p50_ms') NOT BETWEEN 0 AND 3.6e6)
        OR (json_type(body, '$.latency_p99_ms') IN ('integer', 'real')
            AND json_extract(body, '$.latency_p99_ms') NOT BETWEEN 0 AND 3.6e6)
    ELSE 1 END;
