#!/usr/bin/env python3
"""Builds src/engine/catalog/price_book.json from the public price records.

Usage: python3 tools/price_book.py [SHARED_PRICES_DIR]  (default ../shared/design/prices)

Reads prices.json (ANF: the Azure Retail Prices API snapshot, source A of NOTES.md,
preferred; the ANF calculators' tables only where the snapshot has no row) and
avs-hosts.json (AVS host-hours per region), and writes one compact price book that the
binary compiles in. Deterministic: the same input gives the same file.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared/design/prices"
OUT = ROOT / "src/engine/catalog/price_book.json"
# The snapshot's own ANF prices by region and level, for the test that the book holds
# every one of them (the shared records are not available where the tests run).
FIXTURE = ROOT / "tests/fixtures/prices/anf-snapshot.json"
CRR = ("crr-10min", "crr-hourly", "crr-daily")

RETAIL = "docs/calc/beta/pricing-data.json"
ITEMS = {
    # price-book key: (prices.json level, unit of the monthly figure)
    "standard": "standard",
    "premium": "premium",
    "ultra": "ultra",
    "flexible_capacity": "flexible-capacity",
    "flexible_throughput": "flexible-throughput",
    "cool_capacity": "cool-access-capacity",
    "cool_transfer": "cool-access-data-transfer",
    "backup": "backup",
}
HOURS = 730
# The AVS TCO estimator's default reserved-host discounts (avs-hosts.json,
# reserved_pricing_note: 1-year 43 %, 3-year 50 %): the derived reserved rates of a host
# whose pay-as-you-go price is imported later are computed with the same discounts.
AVS_RESERVED_DISCOUNT_PCT = {"1y": 43, "3y": 50}


def monthly(r):
    """USD per unit-month (per GiB, per MiB/s) at 730 hours, or the one-off per-GiB price."""
    if r["unit"].endswith("-hour"):
        return round(r["price"] * HOURS, 6)
    return r["price"]


def main():
    records = json.loads((SRC / "prices.json").read_text())
    anf = {}
    dates = set()
    for r in records:
        if r["product"] != "anf" or r["type"] != "consumption" or not r.get("region"):
            continue
        key = next((k for k, lvl in ITEMS.items() if lvl == r["level"]), None)
        if key is None or r.get("price") in (None, 0):
            continue
        region = anf.setdefault(r["region"], {"name": r.get("region_display") or r["region"]})
        retail = r["source"].get("path") == RETAIL
        have = region.get(key)
        # The Retail API snapshot wins over the calculators' tables.
        if have is None or (retail and not have[1]):
            region[key] = (monthly(r), retail)
            if retail:
                dates.add(r["valid_as_of"])
    for region in anf.values():
        for k, v in list(region.items()):
            if k != "name":
                region[k] = v[0]
    # Cross-region replication, per GiB replicated from the source region: the region's
    # most common rate over its destination pairs (the Retail API snapshot).
    crr = {}
    for r in records:
        if r["product"] == "anf" and r["level"].startswith("crr-") and r.get("region") and r["source"].get("path") == RETAIL:
            crr.setdefault((r["region"], r["level"]), []).append(r["price"])
    for (region, level), prices in crr.items():
        if region in anf:
            anf[region][level.replace("-", "_")] = max(set(prices), key=lambda x: (prices.count(x), -x))
    anf = {k: v for k, v in anf.items() if all(l in v for l in ("standard", "premium", "ultra"))}
    reservations = sorted(
        (
            {
                "level": r["level"],
                "term": r["type"].removeprefix("reservation-"),
                "min_tib": 1024 if "1PiB" in r["meter"] else 100,
                "discount_pct": r["discount_pct"],
            }
            for r in records
            if r["product"] == "anf" and r["type"].startswith("reservation") and r["level"] in ("standard", "premium", "ultra")
        ),
        key=lambda x: (x["level"], x["term"], x["min_tib"]),
    )
    hosts = json.loads((SRC / "avs-hosts.json").read_text())
    avs = {}
    for h in hosts["hosts"]:
        for region, p in (h.get("prices_usd_by_region") or {}).items():
            row = avs.setdefault(region, {"name": p.get("region_display") or region})
            row[h["sku"]] = {"payg_hour": p["payg_hour"], "ri_1y_hour": p.get("ri_1y_hour_calc_default"),
                             "ri_3y_hour": p.get("ri_3y_hour_calc_default")}
    book = {
        "id": "anf-retail-" + max(dates),
        "date": max(dates),
        "source": "Azure Retail Prices API snapshot in Azure/azure-netapp-files docs/calc/beta/pricing-data.json (commit 5bd1556, 2026-01-29); reserved-capacity discounts from docs/effective-calc/index.js; AVS hosts from docs/avs-calc/index.js (2025-06-04; reserved rates are the estimator's default discounts)",
        "hours_per_month": HOURS,
        "reference_region": {"anf": "eastus", "azure_files": "swedencentral", "gcnv": "us-central1"},
        "anf": dict(sorted(anf.items())),
        "anf_reservations": reservations,
        "avs": dict(sorted(avs.items())),
        "avs_date": hosts["prices_valid_as_of"][:10],
        "avs_source": "AVS TCO estimator, Azure/azure-netapp-files docs/avs-calc/index.js (commit 1c6dbe0, 2025-06-04), pay-as-you-go per host-hour",
        "avs_reserved_discount_pct": AVS_RESERVED_DISCOUNT_PCT,
    }
    OUT.write_text(json.dumps(book, indent=1, sort_keys=False) + "\n")
    write_fixture(records)
    print(f"{OUT.relative_to(ROOT)}: {len(anf)} ANF regions, {len(avs)} AVS regions, {len(reservations)} reservation bands")


def write_fixture(records):
    """The Retail API snapshot's ANF rows, copied: for each region and level the book
    prices, the distinct monthly prices the snapshot lists (replication: one per
    destination pair meter and the region's generic meter)."""
    rows = {}
    for r in records:
        if r["product"] != "anf" or r["type"] != "consumption" or not r.get("region"):
            continue
        if r["source"].get("path") != RETAIL or r.get("price") in (None, 0):
            continue
        key = next((k for k, lvl in ITEMS.items() if lvl == r["level"]), None)
        if key is None and r["level"] in CRR:
            key = r["level"].replace("-", "_")
        if key is not None:
            rows.setdefault((r["region"], key), set()).add(monthly(r))
    fixture = {
        "source": f"prices.json records of {RETAIL} (commit 5bd1556, 2026-01-29), monthly at {HOURS} h",
        "rows": [{"region": reg, "level": key, "prices": sorted(p)} for (reg, key), p in sorted(rows.items())],
    }
    lines = ",\n".join("  " + json.dumps(row) for row in fixture["rows"])
    FIXTURE.write_text('{"source": ' + json.dumps(fixture["source"]) + ',\n "rows": [\n' + lines + "\n ]\n}\n")
    print(f"{FIXTURE.relative_to(ROOT)}: {len(rows)} region-level rows")


if __name__ == "__main__":
    main()
