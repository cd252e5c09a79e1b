-- What a calibration found: how far the measured runs lay from the published fit's
-- prediction for them and from the refitted one, % (geometric mean of measured /
-- predicted - 1). Null for calibrations stored before; the sentence then names only the
-- parameters that moved.

ALTER TABLE scenario_calibrations ADD COLUMN measured_vs_published_pct REAL;
ALTER TABLE scenario_calibrations ADD COLUMN measured_vs_refitted_pct REAL;
