-- PostgreSQL twin of ../20270104000000_calibration_gap.sql (same version, same schema).
-- What a calibration found: how far the measured runs lay from the published fit's
-- prediction for them and from the refitted one, % (geometric mean of measured /
-- predicted - 1). Null for calibrations stored before; the sentence then names only the
-- parameters that moved.

ALTER TABLE scenario_calibrations ADD COLUMN measured_vs_published_pct DOUBLE PRECISION;
ALTER TABLE scenario_calibrations ADD COLUMN measured_vs_refitted_pct DOUBLE PRECISION;
