-- Runs stored before their figures were checked: an overflow in the result file was
-- stored as null (which cannot be read back) or as a figure beyond any real system
-- (1e308 IOPS), which no chart can draw. The importer now refuses such files
-- (src/engine/import/ranges.rs, whose ranges these are); the runs stored from them
-- are removed.
DELETE FROM measurements
WHERE
    CASE WHEN json_typeof(body::json -> 'iops') = 'number'
        THEN (body::json ->> 'iops')::float8 NOT BETWEEN 0 AND 1e9 ELSE true END
    OR CASE WHEN json_typeof(body::json -> 'read_iops') = 'number'
        THEN (body::json ->> 'read_iops')::float8 NOT BETWEEN 0 AND 1e9 ELSE true END
    OR CASE WHEN json_typeof(body::json -> 'write_iops') = 'number'
        THEN (body::json ->> 'write_iops')::float8 NOT BETWEEN 0 AND 1e9 ELSE true END
    OR CASE WHEN json_typeof(body::json -> 'mibps') = 'number'
        THEN (body::json ->> 'mibps')::float8 NOT BETWEEN 0 AND 1e8 ELSE true END
    OR CASE WHEN json_typeof(body::json -> 'read_mibps') = 'number'
        THEN (body::json ->> 'read_mibps')::float8 NOT BETWEEN 0 AND 1e8 ELSE true END
    OR CASE WHEN json_typeof(body::json -> 'write_mibps') = 'number'
        THEN (body::json ->> 'write_mibps')::float8 NOT BETWEEN 0 AND 1e8 ELSE true END
    OR CASE WHEN json_typeof(body::json -> 'read_pct') = 'number'
        THEN (body::json ->> 'read_pct')::float8 NOT BETWEEN 0 AND 100 ELSE true END
    OR CASE WHEN json_typeof(body::json -> 'io_size_kib') = 'number'
        THEN (body::json ->> 'io_size_kib')::float8 NOT BETWEEN 0 AND 1048576 ELSE true END
    OR CASE WHEN json_typeof(body::json -> 'runtime_s') = 'number'
        THEN (body::json ->> 'runtime_s')::float8 NOT BETWEEN 0 AND 1e8 ELSE true END
    OR CASE WHEN json_typeof(body::json -> 'latency_mean_ms') = 'number'
        THEN (body::json ->> 'latency_mean_ms')::float8 NOT BETWEEN 0 AND 3.6e6 ELSE false END
    OR CASE WHEN json_typeof(body::json -> 'latency_p50_ms') = 'number'
        THEN (body::json ->> 'latency_p50_ms')::float8 NOT BETWEEN 0 AND 3.6e6 ELSE false END
    OR CASE WHEN json_typeof(body::json -> 'latency_p99_ms') = 'number'
        THEN (body::json ->> 'latency_p99_ms')::float8 NOT BETWEEN 0 AND 3.6e6 ELSE false END;
