#!/usr/bin/env python3
"""Builds src/engine/catalog/regions.json from the ANF region map data checked in under
tools/data/anf-region-map/ (no network).

Usage: python3 tools/region_features.py

Reads regions.json (the map's data, byte for byte as published) and source.json (where
it comes from: URL, commit, date, SHA-256), checks the file is the one recorded, and
writes per region what volplan checks a scenario against: the Flexible service level,
large volumes, cool access, Azure NetApp Files datastores for AVS, the regions volumes
replicate to, and the map's coordinates (to name the nearest regions that offer a
feature). Deterministic: the same input gives the same file.
"""
import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tools/data/anf-region-map"
OUT = ROOT / "src/engine/catalog/regions.json"

# volplan's name: the map's property.
FLAGS = {
    "flexible": "flexible",
    "large_volumes": "largevolumes",
    "cool_access": "standardcool",
    "avs_datastore": "avsdatastore",
}


def main():
    source = json.loads((DATA / "source.json").read_text())
    raw = (DATA / "regions.json").read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != source["sha256"]:
        raise SystemExit(f"regions.json has SHA-256 {digest}, source.json records {source['sha256']}: update source.json with the new commit and date")
    data = json.loads(raw)
    known = {r["shortname"] for r in data["regions"]}
    regions = {}
    for r in data["regions"]:
        key = r["shortname"]
        lon, lat = data["regionLocations"][key]
        row = {"name": r["longname"], "location": [lon, lat]}
        for ours, theirs in FLAGS.items():
            row[ours] = bool(r[theirs])
        unknown = [x for x in r["crrregions"] if x not in known]
        if unknown:
            raise SystemExit(f"{key} replicates to regions the map does not list: {unknown}")
        row["replication"] = sorted(r["crrregions"])
        regions[key] = row
    # A pair is listed from both ends; say so if the data ever disagrees.
    for key, row in regions.items():
        for other in row["replication"]:
            if key not in regions[other]["replication"]:
                raise SystemExit(f"{key} -> {other} is listed, {other} -> {key} is not")
    commit = source["commit"][:7]
    out = {
        "date": source["date"],
        "source": f"{source['name']} ({source['repository']} {source['path']}, commit {commit}, {source['date']})",
        "url": source["url"],
        "regions": dict(sorted(regions.items())),
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {len(regions)} regions from commit {commit} ({source['date']})")


if __name__ == "__main__":
    main()
